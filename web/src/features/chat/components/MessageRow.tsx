import type { ChatMessage } from '../../../../../common/api/chat';
import { RelativeTime } from '../../../components/ui/RelativeTime';
import { Link } from '../../../lib/router';
import { openPopup } from '../../../lib/popups';
import { useCachedImage } from '../../../lib/image-cache';

/** One message: the sender's face and name (to their profile), the text, its age and a report control. */
export function MessageRow({ message }: { message: ChatMessage }) {
  const name = message.username || `User ${message.senderId}`;
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
        </div>
        <p className="chat-message__text">{message.message}</p>
      </div>
    </li>
  );
}
