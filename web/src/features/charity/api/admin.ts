import { queryOptions, useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ApproveBody, RejectBody, StringList } from '../../../../../common/api/charity';
import { useAction } from '../../../hooks/useAction';
import { api, apiText, newActionKey } from '../../../lib/api';
import { fetchLinksPage, linksPaging } from './page';

/** The admin list: every link, or one user's (GET /api/admin/all-links, /api/admin/user-donations/{userId}). */
export const adminLinksQuery = (userId: string | undefined) => ({
  queryKey: ['charity', 'admin', 'links', userId ?? 'all'] as const,
  queryFn: ({ pageParam }: { pageParam: number }) =>
    fetchLinksPage(
      userId ? `/api/admin/user-donations/${encodeURIComponent(userId)}` : '/api/admin/all-links',
      pageParam,
    ),
  ...linksPaging,
  retry: false,
});

export function useAdminLinks(userId: string | undefined) {
  const query = useInfiniteQuery(adminLinksQuery(userId));
  useEffect(() => {
    if (query.error) console.warn('admin donation links failed to load', query.error);
  }, [query.error]);
  return {
    links: query.data?.pages.flat() ?? [],
    loading: query.isPending && !query.error,
    more: query.hasNextPage ? () => void query.fetchNextPage() : undefined,
    loadingMore: query.isFetchingNextPage,
  };
}

export type OptionList = 'charityNames' | 'charity-categories' | 'charity-rejection-reasons';

/** The dropdowns' offered values (kept in the database); a failure is only logged (docs/product.md#admin). */
export const optionsQuery = (list: OptionList) =>
  queryOptions({
    queryKey: ['charity', 'admin', 'options', list] as const,
    queryFn: () => api<StringList>(`/api/admin/${list}`),
    retry: false,
    staleTime: 5 * 60_000,
  });

export function useOptions(list: OptionList): string[] {
  const query = useQuery(optionsQuery(list));
  useEffect(() => {
    if (query.error) console.warn(`${list} failed to load`, query.error);
  }, [query.error, list]);
  return query.data ?? [];
}

export type Decision = { kind: 'approve'; body: Partial<ApproveBody> } | { kind: 'reject'; body: Partial<RejectBody> };

/**
 * Approve or reject (docs/product.md#admin): the answer is read as text and shown as it came, 'Success' when it is empty; `decided`
 * says the server took the decision (2xx). A network failure throws. Both move money, so each click carries an
 * idempotency key of its own.
 */
export const decide = async ({ kind, body }: Decision): Promise<{ text: string; decided: boolean }> => {
  const { status, text } = await apiText(`/api/admin/charity/${kind}`, { body, idempotencyKey: newActionKey() });
  return { text: text === '' ? 'Success' : text, decided: status >= 200 && status < 300 };
};

export function useDecide() {
  const client = useQueryClient();
  return useAction(async (decision: Decision) => {
    try {
      return await decide(decision);
    } finally {
      void client.invalidateQueries({ queryKey: ['charity', 'admin', 'links'] });
      void client.invalidateQueries({ queryKey: ['charity', 'links'] });
    }
  });
}
