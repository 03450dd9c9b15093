import { useQueryClient } from '@tanstack/react-query';
import type { SendLinkBody } from '../../../../../common/api/charity';
import { useAction } from '../../../hooks/useAction';
import { api } from '../../../lib/api';

/** POST /api/charity-link/send: the donation link a user asks to be credited for (charity tenants only). */
export const sendCharityLink = (body: SendLinkBody): Promise<unknown> =>
  api<unknown>('/api/charity-link/send', { body });

/** Sends a link; the user's own list shows it at once as Pending. */
export function useSendCharityLink() {
  const client = useQueryClient();
  return useAction(async (link: string) => {
    const answer = await sendCharityLink({ link });
    void client.invalidateQueries({ queryKey: ['charity', 'links'] });
    return answer;
  });
}
