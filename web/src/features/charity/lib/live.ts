import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type { DonationLinks } from '../../../../../common/api/charity';
import { useLiveChannel } from '../../../lib/live';

/** Which list a screen shows: the user's own, the public one, or the console's (everyone's or one user's). */
export type DonationListKind = 'my' | 'public' | 'admin';

const MY = ['charity', 'links', 'my'] as const;

/**
 * A donation list changes with the `donations` channel (docs/decisions.md "Screens that change with the live
 * connection"): an administrator's decision turns a card from Pending to Approved or Rejected, in the sender's own
 * list (when the link is one of theirs), in the public list and in the console; a new link lands in the console.
 * Only the link's id travels, so the list is fetched again.
 */
export function useDonationsLive(kind: DonationListKind, enabled = true): void {
  const client = useQueryClient();
  useLiveChannel(
    'donations',
    (e) => {
      const id = e.m.id;
      if (kind === 'admin') {
        void client.invalidateQueries({ queryKey: ['charity', 'admin', 'links'] });
      } else if (e.t === 'linkDecided') {
        if (kind === 'public') void client.invalidateQueries({ queryKey: ['charity', 'links', 'public'] });
        else if (isMine(client.getQueryData<InfiniteData<DonationLinks>>(MY), id))
          void client.invalidateQueries({ queryKey: MY });
      }
    },
    enabled,
  );
}

const isMine = (data: InfiniteData<DonationLinks> | undefined, id: number): boolean =>
  data?.pages.some((page) => page.some((link) => link.id === id)) ?? false;
