import { NotificationPreviewList } from '../features/notifications/components/NotificationPreviewList';
import '../features/notifications/notifications.css';

/** docs/product.md#notifications: the phone's notifications, the bubble's content as a page. */
export default function MobileNotificationsPage() {
  return (
    <section className="page notifications-page">
      <h1>Notifications</h1>
      <div className="notifications__box">
        <NotificationPreviewList />
      </div>
    </section>
  );
}
