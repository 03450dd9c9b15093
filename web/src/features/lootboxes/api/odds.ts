import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Odds } from '../../../../../common/api/lootboxes';
import { itemOf } from '../../../../../common/items';
import { api } from '../../../lib/api';
import { useLiveChannel } from '../../../lib/live';

export const fetchOdds = (): Promise<Odds> => api<Odds>('/api/lootbox/odds');

/** The weights the next opening uses (public): they move only when elusive items go on sale. */
export const oddsQuery = queryOptions({
  queryKey: ['lootboxes', 'odds'] as const,
  queryFn: fetchOdds,
  staleTime: 30_000,
});

export const useOdds = () => useQuery(oddsQuery);

/** The elusive chance falls as elusive units go on sale: a change of one's book on the market reads the odds again. */
export function useOddsFollowMarket(): void {
  const client = useQueryClient();
  useLiveChannel('market', (e) => {
    if (e.m.marketQuantityDelta && itemOf(e.m.itemType)?.tier === 'ELUSIVE')
      void client.invalidateQueries({ queryKey: oddsQuery.queryKey });
  });
}
