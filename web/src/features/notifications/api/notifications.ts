import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import type {
  Notification,
  NotificationFilter,
  NotificationPreview,
  NotificationTopic,
  ValueAnswer,
} from '../../../../../common/api/notifications';
import { useAction } from '../../../hooks/useAction';
import { api } from '../../../lib/api';
import { useLoggedIn } from '../../../lib/session';

/** Everything of this feature lives under this key: a live `newNotification` refetches what is shown. */
export const NOTIFICATIONS = ['notifications'] as const;

/** The bell's number: unread notifications (a folded one counts once). */
export const unreadCountQuery = queryOptions({
  queryKey: [...NOTIFICATIONS, 'unreadCount'] as const,
  queryFn: async () => (await api<ValueAnswer>('/api/user-notifications/unread-count')).value,
  staleTime: 60_000,
});
export const useUnreadCount = () => useQuery({ ...unreadCountQuery, enabled: useLoggedIn() });

/** The bubble's content: the newest 5 and the unread count. */
export const previewQuery = queryOptions({
  queryKey: [...NOTIFICATIONS, 'preview'] as const,
  queryFn: () => api<NotificationPreview>('/api/user-notifications/preview'),
  staleTime: 60_000,
});
export const usePreview = (enabled = true) => useQuery({ ...previewQuery, enabled: useLoggedIn() && enabled });

export const PAGE_SIZE = 20;

/** The notifications page: newest first, a page at a time, by filter and type. */
export const listQuery = (filter: NotificationFilter, topic: NotificationTopic | null) =>
  infiniteQueryOptions({
    queryKey: [...NOTIFICATIONS, 'list', filter, topic] as const,
    queryFn: ({ pageParam }) => {
      const q = new URLSearchParams({ filter, limit: String(PAGE_SIZE) });
      if (topic) q.set('topic', topic);
      if (pageParam !== null) q.set('cursor', String(pageParam));
      return api<Notification[]>(`/api/user-notifications?${q}`);
    },
    initialPageParam: null as number | null,
    getNextPageParam: (last: Notification[]) => (last.length < PAGE_SIZE ? undefined : last[last.length - 1]!.id),
    staleTime: 60_000,
  });
export const useNotificationList = (filter: NotificationFilter, topic: NotificationTopic | null) =>
  useInfiniteQuery({ ...listQuery(filter, topic), enabled: useLoggedIn() });

/**
 * Drops the shown notifications `keep` refuses (about removed content, from a blocked user: docs/product.md#moderation)
 * from the bubble and the lists, then refetches them all, the unread count with them.
 */
export function filterNotifications(client: QueryClient, keep: (n: Notification) => boolean): void {
  client.setQueryData<NotificationPreview>(previewQuery.queryKey, (old) =>
    old ? { ...old, notifications: old.notifications.filter(keep) } : old,
  );
  for (const [key, data] of client.getQueriesData<InfiniteData<Notification[]>>({
    queryKey: [...NOTIFICATIONS, 'list'],
  })) {
    if (data) client.setQueryData(key, { ...data, pages: data.pages.map((page) => page.filter(keep)) });
  }
  void client.invalidateQueries({ queryKey: NOTIFICATIONS });
}

/** Marks one notification read (with every event it folds), then refetches the count and the lists. */
export function useMarkRead() {
  const client = useQueryClient();
  return useAction(async (n: Pick<Notification, 'id'>) => {
    await api('/api/user-notifications/read', { body: { id: n.id, unreadIds: String(n.id) } });
    await client.invalidateQueries({ queryKey: NOTIFICATIONS });
  });
}

export function useMarkAllRead() {
  const client = useQueryClient();
  return useAction(async () => {
    await api('/api/user-notifications/read-all', { body: {} });
    await client.invalidateQueries({ queryKey: NOTIFICATIONS });
  });
}
