import { DONATION_PAGE } from '../../../../../common/charity';
import type { DonationLinks } from '../../../../../common/api/charity';
import { api } from '../../../lib/api';

/** One page of a donation list: the newest, or those older than `beforeId` (every list is newest first by id). */
export const fetchLinksPage = (path: string, beforeId: number): Promise<DonationLinks> =>
  api<DonationLinks>(beforeId ? `${path}?beforeId=${beforeId}` : path);

/** The paging every donation list shares: a full page means there may be older links. */
export const linksPaging = {
  initialPageParam: 0,
  getNextPageParam: (last: DonationLinks): number | undefined =>
    last.length < DONATION_PAGE ? undefined : last[last.length - 1]!.id,
};
