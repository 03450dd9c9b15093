import { useQueryClient } from '@tanstack/react-query';
import { useLiveChannel } from '../../../lib/live';

/** The cache changes, loaded with the first event: the shell's first load carries only the subscription. */
const loadRemoval = () => import('./removal');

/**
 * The public `moderation` channel (docs/product.md#moderation): content removed by a decision leaves every view at
 * once; content restored by a reversed appeal is read again. The shell mounts it for everyone, signed in or not.
 */
export function useModerationLive(): void {
  const client = useQueryClient();
  useLiveChannel('moderation', (e) => {
    void loadRemoval().then((m) => {
      if (e.t === 'contentRemoved') m.removeContent(client, e.m);
      else if (e.t === 'contentRestored') m.restoreContent(client, e.m);
    });
  });
}
