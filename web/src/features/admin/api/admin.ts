import { queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { AdminReports, AmIWorthyAnswer, ConservationReport } from '../../../../../common/api/admin';
import { api, ApiError } from '../../../lib/api';

/** GET /api/admin/am-i-worthy: {message: 'YES'} for an admin; 401 or 403 for everyone else. */
export const worthyQuery = queryOptions({
  queryKey: ['admin', 'worthy'] as const,
  queryFn: () => api<AmIWorthyAnswer>('/api/admin/am-i-worthy'),
  retry: false,
  staleTime: Infinity,
});

/**
 * The admin check's outcome: 'checking' until the server answers, 'admin' once it said YES, 'refused' when it
 * answered anything else (401 to a visitor, 403 to a non-admin, or a message other than YES), 'failed' when it
 * could not be asked (network, 5xx): that one may be tried again.
 */
export type AdminCheck = 'checking' | 'admin' | 'refused' | 'failed';

export function useAdminCheck(): { check: AdminCheck; retry: () => void } {
  const { data, error, refetch } = useQuery(worthyQuery);
  const retry = () => void refetch();
  if (data) return { check: data.message === 'YES' ? 'admin' : 'refused', retry };
  if (error) {
    const status = error instanceof ApiError ? error.status : 0;
    return { check: status >= 400 && status < 500 ? 'refused' : 'failed', retry };
  }
  return { check: 'checking', retry };
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
