import { LoadFailed } from '../../../components/ui/LoadFailed';
import { useChatMessages, useOthersOnline } from '../api/chat';
import { useRoomIsOpen } from '../api/missed';
import { useProfile } from '../../users/api/profile';
import { useChatLive } from '../lib/cache';
import { useStickToBottom } from '../lib/scroll';
import { ChatComposer } from './ChatComposer';
import { MessageRow } from './MessageRow';
import '../chat.css';

/** docs/product.md#chat: the General room, its online count, the messages (live) and the input. */
export function ChatRoom({ compact = false, onClose }: { compact?: boolean; onClose?: () => void }) {
  useChatLive();
  useRoomIsOpen();
  const messages = useChatMessages();
  const { data: me } = useProfile();
  const others = useOthersOnline();
  const list = messages.data ?? [];
  const { list: listRef, onScroll, showArrow, scrollDown } = useStickToBottom(list.length);
  // docs/product.md#chat: the other users plus one (the reader).
  const online = others.data === undefined ? undefined : others.data + 1;

  return (
    <section className={`chat-room${compact ? ' chat-room--compact' : ''}`} aria-label="General chat room">
      <header className="chat-room__head">
        <h1 className="chat-room__title">General</h1>
        <span className="chat-room__online" data-testid="chat-online">
          <span className="chat-room__dot" aria-hidden="true" />
          {online === undefined ? '…' : `${online} online`}
        </span>
        {onClose && (
          <button type="button" className="chat-room__close" aria-label="Close chat" onClick={onClose}>
            ×
          </button>
        )}
      </header>
      <div className="chat-room__list" ref={listRef} onScroll={onScroll}>
        {messages.isError ? (
          <LoadFailed text="The messages could not be loaded." onRetry={() => void messages.refetch()} />
        ) : messages.isPending ? (
          <p className="chat-room__empty">Loading...</p>
        ) : list.length === 0 ? (
          <p className="chat-room__empty">There are no messages in this room yet</p>
        ) : (
          <ul className="chat-room__messages">
            {list.map((m) => (
              <MessageRow key={m.id} message={m} myId={me?.id} />
            ))}
          </ul>
        )}
      </div>
      {showArrow && (
        <button
          type="button"
          className="chat-room__down"
          aria-label="Scroll to the newest messages"
          onClick={scrollDown}
        >
          ↓
        </button>
      )}
      <ChatComposer />
    </section>
  );
}
