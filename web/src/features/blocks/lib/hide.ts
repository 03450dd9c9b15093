import type { QueryClient } from '@tanstack/react-query';
import { filterMessages } from '../../chat/api/chat';
import { filterComments } from '../../comments/api/comments';
import { filterNotifications } from '../../notifications/api/notifications';

/**
 * A user just blocked: their comments, replies, chat messages and notifications leave what is shown at once
 * (docs/product.md#blocks); the server leaves them out of every later answer.
 */
export function hideUser(client: QueryClient, user: { userId: number; username: string }): void {
  filterComments(client, (c) => c.authorId !== user.userId);
  filterMessages(client, (m) => m.senderId !== user.userId);
  filterNotifications(client, (n) => n.actorId !== user.userId);
}
