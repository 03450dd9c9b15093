import type { ChatMessage } from '../../../../common/api/chat';
import { isoTime } from '../../../../common/time';
import { imageUrl } from '../../storage/storage';
import type { MessageRow } from './chat.repository';

/** The fields of a chat message that leave the server (docs/product.md#chat). */
export function presentMessage(r: MessageRow): ChatMessage {
  return {
    id: Number(r.id),
    senderId: Number(r.sender_id),
    username: r.username ?? '',
    profilePicture: r.profile_image_key ? imageUrl(r.profile_image_key) : null,
    message: r.body,
    time: isoTime(r.created_at),
  };
}
