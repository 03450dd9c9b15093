import { refreshChatRoom } from '../modules/chat/chat.service';
import type { Job } from './runner';

/**
 * The chat room's broadcasts that no send raises (docs/product.md#chat: newMessagePrice within 5 s of any
 * change, a fall by time alone included): the price as the last minute's messages age, and the online count.
 */
export const chatRoomJob: Job = {
  name: 'chat-room',
  lock: 727277,
  everyMs: 2_000,
  run: (ctx, work) => refreshChatRoom(ctx, work),
};
