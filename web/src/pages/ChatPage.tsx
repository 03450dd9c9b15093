import { ChatRoom } from '../features/chat/components/ChatRoom';

/** docs/product.md#chat: the General room, for visitors too (sending asks them to sign in). */
export default function ChatPage() {
  return <ChatRoom />;
}
