import { NotificationsView } from '../features/notifications/components/NotificationsView';
import { PushSettings } from '../features/push/components/PushSettings';

/** docs/product.md#notifications: every notification, with filters; push on this device and its switches (#push). */
export default function NotificationsPage() {
  return <NotificationsView settings={<PushSettings />} />;
}
