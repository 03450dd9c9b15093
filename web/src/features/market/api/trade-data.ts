import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TradeData } from '../../../../../common/api/market';
import type { Paid } from '../../../../../common/api/shared';
import { ApiError, api } from '../../../lib/api';
import { usePaidAction } from '../../wallet/api/usePaidAction';
import { tradeDataKey } from '../lib/cache';

/** GET /api/trade-data/{itemType}; null while the user has not unlocked the graphs (the server answers 403). */
export async function fetchTradeData(itemType: string): Promise<TradeData | null> {
  try {
    return await api<TradeData>(`/api/trade-data/${encodeURIComponent(itemType)}`);
  } catch (err) {
    if (err instanceof ApiError && err.status === 403) return null;
    throw err;
  }
}

export const tradeDataQuery = (itemType: string) =>
  queryOptions({
    queryKey: tradeDataKey(itemType),
    queryFn: () => fetchTradeData(itemType),
    staleTime: 30_000,
    retry: (count, err) => count < 2 && !(err instanceof ApiError),
  });

export const useTradeData = (itemType: string) => useQuery(tradeDataQuery(itemType));

/** POST /api/user/graph-item: every item's graphs for $1, once (a second call charges nothing). */
export const unlockGraphs = (body: { balance: number }, idempotencyKey: string): Promise<Paid> =>
  api<Paid>('/api/user/graph-item', { body, idempotencyKey });

/** Unlocks (a paid action), then fetches the trade data again: every item's, since the unlock is for all of them. */
export function useUnlockGraphs() {
  const client = useQueryClient();
  return usePaidAction(unlockGraphs, { onPaid: () => client.invalidateQueries({ queryKey: tradeDataKey() }) });
}
