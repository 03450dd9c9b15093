import { ChatRoom } from '../features/chat/components/ChatRoom';

/** SPEC §2 "Chat": the General room, for visitors too (sending asks them to sign in). */
export default function ChatPage() {
  return <ChatRoom />;
}
