import { NotificationsView } from '../features/notifications/components/NotificationsView';

/** SPEC §2 "Notifications": every notification, with filters. */
export default function NotificationsPage() {
  return <NotificationsView />;
}
