import { useMissedMessages } from '../api/missed';

/** The count of chat messages the user has not seen, on the chat bubble or the bottom bar's Chat entry. */
export function MissedCount() {
  const count = useMissedMessages();
  if (count <= 0) return null;
  return (
    <span className="chat-count" data-testid="chat-missed-count" aria-label={`${count} new chat messages`}>
      {count > 99 ? '99+' : count}
    </span>
  );
}
