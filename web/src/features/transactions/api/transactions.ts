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

/** Notices of a fill of the user's resting offer: a buy offer's fill is paid from what it held, not the balance. */
const FILL_TOPICS: ReadonlySet<string> = new Set(['ITEM_BOUGHT', 'ITEM_SOLD']);

/**
 * While a statement is on screen, money that moves (a spend in another tab, a sale on the market) reloads it. A fill
 * of the user's buy offer moves no balance (the offer held the money): its notice reloads it too.
 */
export function useStatementFollowsBalance(): void {
  const client = useQueryClient();
  const loggedIn = useLoggedIn();
  const reload = () => void client.invalidateQueries({ queryKey: transactionsRoot });
  useLiveChannel('balance', reload, loggedIn);
  useLiveChannel(
    'notification',
    (m) => {
      if (m.t === 'newNotification' && FILL_TOPICS.has(m.m.topic)) reload();
    },
    loggedIn,
  );
}
