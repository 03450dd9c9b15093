import { lazy, Suspense, useRef, useState } from 'react';
import { useDismiss } from '../../../hooks/useDismiss';
import { NotificationCount } from './NotificationCount';

/*
 * The list and the words of each notification load when the bubble first opens (or is pointed at), not with the
 * wall: the first load stays under its budget (docs/performance.md).
 */
const loadList = () => import('./NotificationPreviewList');
const NotificationPreviewList = lazy(() => loadList().then((m) => ({ default: m.NotificationPreviewList })));
const preload = () => void loadList().catch(() => {});

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
          <Suspense fallback={<p className="muted">Loading...</p>}>
            <NotificationPreviewList onOpen={() => setOpen(false)} />
          </Suspense>
        </div>
      )}
      <button
        type="button"
        className="notification-bubble__button"
        aria-label="Open notifications"
        aria-expanded={open}
        onPointerEnter={preload}
        onFocus={preload}
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
