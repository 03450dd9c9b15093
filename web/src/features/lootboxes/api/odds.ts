import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Odds } from '../../../../../common/api/lootboxes';
import { api } from '../../../lib/api';

export const fetchOdds = (): Promise<Odds> => api<Odds>('/api/lootbox/odds');

/** The weights the next opening uses (public): they move only when elusive items go on sale. */
export const oddsQuery = queryOptions({
  queryKey: ['lootboxes', 'odds'] as const,
  queryFn: fetchOdds,
  staleTime: 30_000,
});

export const useOdds = () => useQuery(oddsQuery);
