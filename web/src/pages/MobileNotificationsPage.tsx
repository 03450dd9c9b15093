import { NotificationPreviewList } from '../features/notifications/components/NotificationPreviewList';
import { PushSettings } from '../features/push/components/PushSettings';
import '../features/notifications/notifications.css';

/**
 * docs/product.md#notifications: the phone's notifications, the bubble's content as a page, with the push section
 * /notifications has (docs/product.md#push), since a phone's bell comes here.
 */
export default function MobileNotificationsPage() {
  return (
    <section className="page notifications-page">
      <h1>Notifications</h1>
      <PushSettings />
      <div className="notifications__box">
        <NotificationPreviewList />
      </div>
    </section>
  );
}
