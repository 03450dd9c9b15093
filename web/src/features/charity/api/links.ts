import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { DonationLinks } from '../../../../../common/api/charity';
import { api } from '../../../lib/api';

export type DonationScope = 'my' | 'public';

const PATHS: Record<DonationScope, string> = {
  my: '/api/charity-link/my-links',
  public: '/api/charity-link/public',
};

export const fetchDonationLinks = (scope: DonationScope): Promise<DonationLinks> => api<DonationLinks>(PATHS[scope]);

/** The signed-in user's links (Pending included), or the public list of decided, publicly visible ones. */
export const donationLinksQuery = (scope: DonationScope) =>
  queryOptions({
    queryKey: ['charity', 'links', scope] as const,
    queryFn: () => fetchDonationLinks(scope),
    retry: false,
  });

/** SPEC §8 "Donation fetch failure": logged, the loading ends and the list stays empty. */
export function useDonationLinks(scope: DonationScope, enabled = true) {
  const query = useQuery({ ...donationLinksQuery(scope), enabled });
  useEffect(() => {
    if (query.error) console.warn('donation links failed to load', query.error);
  }, [query.error]);
  return { links: query.data ?? [], loading: enabled && query.isPending && !query.error };
}
