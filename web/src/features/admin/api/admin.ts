import { queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { AdminReports, AmIWorthyAnswer, ConservationReport } from '../../../../../common/api/admin';
import { api } from '../../../lib/api';

/** GET /api/admin/am-i-worthy: {message: 'YES'} for an admin; 401 or 403 for everyone else. */
export const worthyQuery = queryOptions({
  queryKey: ['admin', 'worthy'] as const,
  queryFn: () => api<AmIWorthyAnswer>('/api/admin/am-i-worthy'),
  retry: false,
  staleTime: Infinity,
});

/** True only once the server said YES; a refusal leaves it false (the console stays on its loading text). */
export function useIsAdmin(): boolean {
  const { data } = useQuery(worthyQuery);
  return data?.message === 'YES';
}

/** GET /api/admin/ledger-check: the conservation check of money and items at this moment. */
export const ledgerCheckQuery = queryOptions({
  queryKey: ['admin', 'ledger-check'] as const,
  queryFn: () => api<ConservationReport>('/api/admin/ledger-check'),
  retry: false,
});
export const useLedgerCheck = () => useQuery(ledgerCheckQuery);

export const REPORTS_PAGE = 50;

/** GET /api/admin/reports: reports of comments and chat messages, newest first, a page at a time. */
export const useReports = () =>
  useInfiniteQuery({
    queryKey: ['admin', 'reports'] as const,
    queryFn: ({ pageParam }) =>
      api<AdminReports>(`/api/admin/reports?limit=${REPORTS_PAGE}${pageParam ? `&beforeId=${pageParam}` : ''}`),
    initialPageParam: 0,
    getNextPageParam: (last) => (last.length < REPORTS_PAGE ? undefined : last[last.length - 1]!.id),
    retry: false,
  });
