import { useRef, useState } from 'react';
import { useDismiss } from '../../../hooks/useDismiss';
import { NotificationCount } from './NotificationCount';
import { NotificationPreviewList } from './NotificationPreviewList';

/** The floating notification bubble beside the chat bubble: the newest 5 in a small panel. */
export function NotificationBubble() {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  useDismiss(open, root, () => setOpen(false));
  return (
    <div className="notification-bubble" ref={root}>
      {open && (
        <div className="notification-bubble__panel" role="dialog" aria-label="Notifications">
          <header className="notification-bubble__head">
            <h2>Notifications</h2>
            <button
              type="button"
              className="notification-bubble__close"
              aria-label="Close notifications"
              onClick={() => setOpen(false)}
            >
              ×
            </button>
          </header>
          <NotificationPreviewList onOpen={() => setOpen(false)} />
        </div>
      )}
      <button
        type="button"
        className="notification-bubble__button"
        aria-label="Open notifications"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true">
          <path
            d="M12 22a2 2 0 0 0 2-2h-4a2 2 0 0 0 2 2zM18 16v-5a6 6 0 0 0-5-5.9V4h-2v1.1A6 6 0 0 0 6 11v5l-2 2v1h16v-1z"
            fill="currentColor"
          />
        </svg>
        <NotificationCount />
      </button>
    </div>
  );
}
