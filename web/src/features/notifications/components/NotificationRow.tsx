import type { Notification } from '../../../../../common/api/notifications';
import { RelativeTime } from '../../../components/ui/RelativeTime';
import { useCachedImage } from '../../../lib/image-cache';
import { useNavigate } from '../../../lib/router';
import { useMarkRead } from '../api/notifications';
import { linkOf, textOf } from '../lib/text';

/** One notification: clicking it reads it and goes where it points; an unread one has its own mark-as-read control. */
export function NotificationRow({ n, onOpen }: { n: Notification; onOpen?: () => void }) {
  const navigate = useNavigate();
  const markRead = useMarkRead();
  const face = useCachedImage(n.profileUrl);
  const unread = !n.b.seen;
  const open = () => {
    if (unread) void markRead.run(n).catch(() => undefined);
    onOpen?.();
    navigate(linkOf(n));
  };
  return (
    <li className={unread ? 'notification notification--unread' : 'notification'} data-testid="notification">
      <button type="button" className="notification__open" onClick={open}>
        <img className="avatar notification__face" src={face} width={36} height={36} alt="" />
        <span className="notification__body">
          <span className="notification__text">{textOf(n)}</span>
          <span className="notification__time">
            <RelativeTime at={n.b.createdOn} />
          </span>
        </span>
      </button>
      {unread && (
        <button
          type="button"
          className="notification__read"
          aria-label="Mark as read"
          data-tip="Mark as read"
          disabled={markRead.isPending}
          onClick={() => void markRead.run(n).catch(() => undefined)}
        >
          <span aria-hidden="true" className="notification__dot" />
        </button>
      )}
    </li>
  );
}
