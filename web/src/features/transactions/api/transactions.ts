import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TransactionRow, TransactionSummary } from '../../../../../common/api/transactions';
import type { TransactionType } from '../../../../../common/transactions';
import { api } from '../../../lib/api';
import { useLiveChannel } from '../../../lib/live';
import { useLoggedIn } from '../../../lib/session';

/** The statement's calls are a signed-in user's own: none is made for a visitor. */
export const transactionsRoot = ['transactions'] as const;

/** Where the browser downloads the whole statement (same origin: the session cookie goes with it). */
export const TRANSACTIONS_CSV_URL = '/api/user-transactions.csv';

export const fetchSummary = (): Promise<TransactionSummary> => api<TransactionSummary>('/api/user-transactions');

/** Type → signed sum; read afresh on every visit (money may have moved since). */
export const summaryQuery = queryOptions({
  queryKey: [...transactionsRoot, 'summary'] as const,
  queryFn: fetchSummary,
});
export const useTransactionSummary = () => useQuery({ ...summaryQuery, enabled: useLoggedIn() });

export const TRANSACTIONS_PAGE = 50;

export function fetchRows(type: TransactionType, before?: number): Promise<TransactionRow[]> {
  const query = new URLSearchParams({ limit: String(TRANSACTIONS_PAGE) });
  if (before !== undefined) query.set('before', String(before));
  return api<TransactionRow[]>(`/api/user-transactions/${encodeURIComponent(type)}?${query}`);
}

/** One type's rows, newest first, a page at a time (each page's cursor is the last id of the one before). */
export const rowsQuery = (type: TransactionType) =>
  infiniteQueryOptions({
    queryKey: [...transactionsRoot, 'rows', type] as const,
    queryFn: ({ pageParam }) => fetchRows(type, pageParam),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => (last.length < TRANSACTIONS_PAGE ? undefined : last.at(-1)?.id),
  });
export const useTransactionRows = (type: TransactionType) =>
  useInfiniteQuery({ ...rowsQuery(type), enabled: useLoggedIn() });

/**
 * While a statement is on screen, money that moves reloads it: the balance (a spend in another tab, a sale), and the
 * user's own side of the market, since a resting buy offer that fills moves money out of escrow without touching
 * the balance (the market sends the user's fields only to the user's own sockets).
 */
export function useStatementFollowsBalance(): void {
  const client = useQueryClient();
  const loggedIn = useLoggedIn();
  const reload = () => void client.invalidateQueries({ queryKey: transactionsRoot });
  useLiveChannel('balance', reload, loggedIn);
  useLiveChannel(
    'market',
    (e) => {
      if (e.m.userQuantityDelta || e.m.userBuyOfferDelta || e.m.userSellOfferDelta) reload();
    },
    loggedIn,
  );
}
