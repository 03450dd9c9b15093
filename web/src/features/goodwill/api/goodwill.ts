import { queryOptions, useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import type { GoodWillPayment, GoodWillTotals, GoodWillValue } from '../../../../../common/api/goodwill';
import type { GoodWillType } from '../../../../../common/constants';
import { useAction } from '../../../hooks/useAction';
import { api } from '../../../lib/api';
import { useLiveChannel } from '../../../lib/live';
import { useLoggedIn } from '../../../lib/session';

/** The signed-in user's cause (the default until they choose). */
export const causeQuery = queryOptions({
  queryKey: ['goodwill', 'cause'] as const,
  queryFn: async () => (await api<GoodWillValue>('/api/user/good-will')).value,
});
export const useCause = (enabled: boolean) => useQuery({ ...causeQuery, enabled });

/** Payments a page holds (the server's default page). */
export const PAYMENTS_PAGE = 50;

/** The user's shares (the half of each spend), newest first, a page at a time, with status and batch reference. */
export const usePayments = () =>
  useInfiniteQuery({
    queryKey: ['goodwill', 'payments'] as const,
    queryFn: ({ pageParam }) =>
      api<GoodWillPayment[]>(
        `/api/user/good-will/payments?limit=${PAYMENTS_PAGE}${pageParam ? `&beforeId=${pageParam}` : ''}`,
      ),
    initialPageParam: 0,
    getNextPageParam: (last) => (last.length < PAYMENTS_PAGE ? undefined : last[last.length - 1]!.id),
  });

/** Every spend sends half to a cause and moves the balance: the shares are read again when the balance moves. */
export function usePaymentsFollowSpending(): void {
  const client = useQueryClient();
  useLiveChannel('balance', () => void client.invalidateQueries({ queryKey: ['goodwill', 'payments'] }), useLoggedIn());
}

/** Per cause: paid in, pending and forwarded (public). */
export const totalsQuery = queryOptions({
  queryKey: ['goodwill', 'totals'] as const,
  queryFn: async () => (await api<GoodWillTotals>('/api/good-will/totals')).causes,
});
export const useTotals = () => useQuery(totalsQuery);

/** Chooses the cause the next spends send half to. */
export function useChooseCause() {
  const client = useQueryClient();
  return useAction(async (goodWill: GoodWillType) => {
    const { value } = await api<GoodWillValue>('/api/user/good-will', { body: { goodWill } });
    client.setQueryData(causeQuery.queryKey, value);
    return value;
  });
}

/** Where the public CSV of forwarded batches downloads from. */
export const PAYMENTS_CSV_URL = '/api/good-will/payments';
