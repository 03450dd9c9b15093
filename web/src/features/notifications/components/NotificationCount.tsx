import { useUnreadCount } from '../api/notifications';
import '../notifications.css';

/** The unread count on a bell (nothing when there is none); kept current by the live channel. */
export function NotificationCount() {
  const { data } = useUnreadCount();
  if (!data) return null;
  return (
    <span className="notification-count" data-testid="notification-count" aria-label={`${data} unread`}>
      {data > 99 ? '99+' : data}
    </span>
  );
}
