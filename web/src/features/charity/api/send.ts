import { useQueryClient } from '@tanstack/react-query';
import type { DonationLink, SendLinkBody } from '../../../../../common/api/charity';
import { useAction } from '../../../hooks/useAction';
import { api, newActionKey } from '../../../lib/api';

/**
 * POST /api/charity-link/send: the donation link a user asks to be credited for (charity tenants only). A key per
 * click, so a retried send does not queue the link twice.
 */
export const sendCharityLink = (body: SendLinkBody): Promise<DonationLink> =>
  api<DonationLink>('/api/charity-link/send', { body, idempotencyKey: newActionKey() });

/** Sends a link; the user's own list shows it at once as Pending. */
export function useSendCharityLink() {
  const client = useQueryClient();
  return useAction(async (link: string) => {
    const answer = await sendCharityLink({ link });
    void client.invalidateQueries({ queryKey: ['charity', 'links'] });
    return answer;
  });
}
