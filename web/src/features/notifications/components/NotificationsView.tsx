import { useState, type ReactNode } from 'react';
import {
  NOTIFICATION_FILTERS,
  type NotificationFilter,
  type NotificationTopic,
} from '../../../../../common/notifications';
import { LoadFailed } from '../../../components/ui/LoadFailed';
import { useMarkAllRead, useNotificationList, useUnreadCount } from '../api/notifications';
import { TOPIC_LABELS } from '../lib/text';
import { NotificationRow } from './NotificationRow';
import '../notifications.css';

const FILTER_LABELS: Record<NotificationFilter, string> = { UNREAD: 'Unread', ALL: 'All', READ: 'Read' };

/**
 * docs/product.md#notifications: Unread, All and Read, a type filter, mark all as read, a page at a time. `settings`
 * goes under the heading (the page puts features/push's section there).
 */
export function NotificationsView({ settings }: { settings?: ReactNode }) {
  const [filter, setFilter] = useState<NotificationFilter>('ALL');
  const [topic, setTopic] = useState<NotificationTopic | null>(null);
  const list = useNotificationList(filter, topic);
  const unread = useUnreadCount();
  const markAll = useMarkAllRead();
  const rows = list.data?.pages.flat() ?? [];

  return (
    <section className="page notifications-page">
      <h1>Notifications</h1>
      {settings}
      <div className="notifications__filters">
        <div className="notifications__tabs" role="group" aria-label="Show">
          {NOTIFICATION_FILTERS.map((f) => (
            <button
              key={f}
              type="button"
              className={f === filter ? 'notifications__tab notifications__tab--active' : 'notifications__tab'}
              aria-pressed={f === filter}
              onClick={() => setFilter(f)}
            >
              {FILTER_LABELS[f]}
            </button>
          ))}
        </div>
        <label className="notifications__type">
          <span>Type</span>
          <select
            value={topic ?? ''}
            onChange={(e) => setTopic(e.target.value === '' ? null : (e.target.value as NotificationTopic))}
          >
            <option value="">All types</option>
            {Object.entries(TOPIC_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="button"
          disabled={markAll.isPending || !unread.data}
          onClick={() => void markAll.run(undefined).catch(() => undefined)}
        >
          Mark all as read
        </button>
      </div>
      {list.isPending ? (
        <p className="notifications__empty">Loading notifications...</p>
      ) : list.isError ? (
        <LoadFailed
          className="notifications__empty"
          text="Notifications could not be loaded."
          onRetry={() => void list.refetch()}
        />
      ) : rows.length === 0 ? (
        <p className="notifications__empty">No notifications to display.</p>
      ) : (
        <ul className="notifications__list notifications__box" aria-label="Notifications">
          {rows.map((n) => (
            <NotificationRow key={n.id} n={n} />
          ))}
        </ul>
      )}
      {list.hasNextPage && (
        <button
          type="button"
          className="button notifications__more"
          disabled={list.isFetchingNextPage}
          onClick={() => void list.fetchNextPage()}
        >
          {list.isFetchingNextPage ? 'Loading...' : 'Show more'}
        </button>
      )}
    </section>
  );
}
