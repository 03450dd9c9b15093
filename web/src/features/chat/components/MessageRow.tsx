import type { ChatMessage } from '../../../../../common/api/chat';
import { RelativeTime } from '../../../components/ui/RelativeTime';
import { Link } from '../../../lib/router';
import { openPopup } from '../../../lib/popups';
import { useCachedImage } from '../../../lib/image-cache';
import { useLoggedIn } from '../../../lib/session';

/**
 * One message: the sender's face and name (to their profile), the text, its age, a report control and, on another
 * user's message, a block control (docs/product.md#moderation-screens).
 */
export function MessageRow({ message, myId }: { message: ChatMessage; myId?: number }) {
  const name = message.username || `User ${message.senderId}`;
  const loggedIn = useLoggedIn();
  const face = useCachedImage(message.profilePicture);
  return (
    <li className="chat-message" data-testid="chat-message">
      <Link to={`/profile/${message.senderId}`} className="chat-message__face" aria-label={name} tabIndex={-1}>
        <img className="avatar" src={face} width={32} height={32} alt="" />
      </Link>
      <div className="chat-message__body">
        <div className="chat-message__meta">
          <Link to={`/profile/${message.senderId}`} className="chat-message__name">
            {name}
          </Link>
          <span className="chat-message__time">
            <RelativeTime at={message.time} />
          </span>
          <button
            type="button"
            className="chat-message__report"
            aria-label={`Report message from ${name}`}
            title="Report"
            onClick={() => openPopup({ kind: 'reportMessage', type: 'CHAT', messageId: message.id })}
          >
            <svg width="14" height="14" viewBox="0 0 24 24" aria-hidden="true">
              <path d="M5 3v18h2v-7h5l1 2h7V5h-6l-1-2z" fill="currentColor" />
            </svg>
          </button>
          {message.senderId !== myId && (
            <button
              type="button"
              className="chat-message__report chat-message__block"
              aria-label={`Block ${name}`}
              title="Block"
              onClick={() =>
                openPopup(
                  loggedIn ? { kind: 'blockUser', userId: message.senderId, username: name } : { kind: 'signIn' },
                )
              }
            >
              <svg width="14" height="14" viewBox="0 0 24 24" aria-hidden="true">
                <path
                  d="M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm0 2a8 8 0 0 1 6.3 12.9L7.1 5.7A8 8 0 0 1 12 4zM4 12c0-1.8.6-3.5 1.7-4.9l11.2 11.2A8 8 0 0 1 4 12z"
                  fill="currentColor"
                />
              </svg>
            </button>
          )}
        </div>
        <p className="chat-message__text">{message.message}</p>
      </div>
    </li>
  );
}
