import { PREVIEW_SIZE } from '../../../../../common/notifications';
import { LoadFailed } from '../../../components/ui/LoadFailed';
import { Link } from '../../../lib/router';
import { usePreview } from '../api/notifications';
import { NotificationRow } from './NotificationRow';

/** The bubble's content (also the phone's /mobile-notifications): the newest 5, and a way to all of them. */
export function NotificationPreviewList({ onOpen }: { onOpen?: () => void }) {
  const preview = usePreview();
  if (preview.isPending) return <p className="notifications__empty">Loading notifications...</p>;
  if (preview.isError) {
    return (
      <LoadFailed
        className="notifications__empty"
        text="Notifications could not be loaded."
        onRetry={() => void preview.refetch()}
      />
    );
  }
  const list = preview.data.notifications.slice(0, PREVIEW_SIZE);
  return (
    <>
      {list.length === 0 ? (
        <p className="notifications__empty">No notifications</p>
      ) : (
        <ul className="notifications__list" aria-label="Latest notifications">
          {list.map((n) => (
            <NotificationRow key={n.id} n={n} onOpen={onOpen} />
          ))}
        </ul>
      )}
      {list.length >= PREVIEW_SIZE && (
        <Link className="notifications__all" to="/notifications" onClick={onOpen}>
          All notifications
        </Link>
      )}
    </>
  );
}
