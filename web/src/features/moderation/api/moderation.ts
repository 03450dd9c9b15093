import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AppealBody, ModerationLog, UserDecisions } from '../../../../../common/api/moderation';
import { useAction } from '../../../hooks/useAction';
import { api } from '../../../lib/api';
import { useLoggedIn } from '../../../lib/session';

/* The author's decisions, their appeal, and the public log (docs/product.md#moderation). */

export const MODERATION = ['moderation'] as const;

/** GET /api/user/moderation: the decisions on the signed-in user's content, newest first. */
export const userDecisionsQuery = queryOptions({
  queryKey: [...MODERATION, 'mine'] as const,
  queryFn: () => api<UserDecisions>('/api/user/moderation'),
  staleTime: 30_000,
});
export const useUserDecisions = () => useQuery({ ...userDecisionsQuery, enabled: useLoggedIn() });

/** POST /api/user/moderation/appeal: once per decision, within its appeal time (400 after it, 409 a second time). */
export const appeal = (body: AppealBody): Promise<unknown> => api<unknown>('/api/user/moderation/appeal', { body });

export function useAppeal() {
  const client = useQueryClient();
  return useAction(async (body: AppealBody) => {
    try {
      await appeal(body);
    } finally {
      void client.invalidateQueries({ queryKey: userDecisionsQuery.queryKey });
    }
  });
}

/** GET /api/moderation-log?cursor=: public, newest first, a page at a time until the cursor is null. */
export const moderationLogQuery = infiniteQueryOptions({
  queryKey: [...MODERATION, 'log'] as const,
  queryFn: ({ pageParam }) =>
    api<ModerationLog>(`/api/moderation-log${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ''}`),
  initialPageParam: null as string | null,
  getNextPageParam: (last: ModerationLog) => last.cursor ?? undefined,
  staleTime: 30_000,
});
export const useModerationLog = () => useInfiniteQuery(moderationLogQuery);

/**
 * Pictures removed while this tab was open (the live `contentRemoved`): the picture's page says so rather than
 * showing it. A restoration takes it out again.
 */
export const removedPicturesKey = [...MODERATION, 'removedPictures'] as const;
export const useRemovedPicture = (id: number): boolean => {
  const { data } = useQuery<number[]>({
    queryKey: removedPicturesKey,
    queryFn: () => [],
    initialData: [],
    // Written only by the live hook (lib/useModerationLive.ts), never fetched: a refetch of everything keeps it.
    enabled: false,
    gcTime: Infinity,
  });
  return data.includes(id);
};
