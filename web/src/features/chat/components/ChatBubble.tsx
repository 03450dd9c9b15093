import '../bubble.css';
import { lazy, Suspense, useState } from 'react';
import { useMissedMessages } from '../api/missed';
import { MissedCount } from './MissedCount';

// The room is a chunk of its own: the bubble alone is all the wall's first load carries.
const ChatRoom = lazy(() => import('./ChatRoom').then((m) => ({ default: m.ChatRoom })));

/**
 * The floating chat bubble (bottom corner): opens a small General room panel with a close button. While closed it
 * counts the messages the user missed.
 */
export function ChatBubble() {
  const [open, setOpen] = useState(false);
  const missed = useMissedMessages();
  return (
    <div className="chat-bubble">
      {open ? (
        <div className="chat-bubble__panel" role="dialog" aria-label="Chat">
          <Suspense fallback={<p className="chat-bubble__loading">Loading...</p>}>
            <ChatRoom compact onClose={() => setOpen(false)} />
          </Suspense>
        </div>
      ) : (
        <button
          type="button"
          className="chat-bubble__button"
          aria-label={missed > 0 ? `Open chat, ${missed} new messages` : 'Open chat'}
          onClick={() => setOpen(true)}
        >
          <svg width="26" height="26" viewBox="0 0 24 24" aria-hidden="true">
            <path d="M4 4h16v12H8l-4 4z" fill="currentColor" />
          </svg>
          <MissedCount />
        </button>
      )}
    </div>
  );
}
