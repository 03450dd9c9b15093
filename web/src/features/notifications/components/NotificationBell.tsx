import { Link } from '../../../lib/router';
import { useUnreadCount } from '../api/notifications';
import { NotificationCount } from './NotificationCount';

/** The header's bell: to the notifications page, with the unread count. */
export function NotificationBell() {
  const { data } = useUnreadCount();
  return (
    <Link
      to="/notifications"
      className="notification-bell"
      aria-label={data ? `Notifications, ${data} unread` : 'Notifications'}
      data-tip="Notifications"
      data-testid="notification-bell"
    >
      <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true">
        <path
          d="M12 22a2 2 0 0 0 2-2h-4a2 2 0 0 0 2 2zM18 16v-5a6 6 0 0 0-5-5.9V4h-2v1.1A6 6 0 0 0 6 11v5l-2 2v1h16v-1z"
          fill="currentColor"
        />
      </svg>
      <NotificationCount />
    </Link>
  );
}
