import { NotificationsView } from '../features/notifications/components/NotificationsView';

/** docs/product.md#notifications: every notification, with filters. */
export default function NotificationsPage() {
  return <NotificationsView />;
}
