import type { QueryClient } from '@tanstack/react-query';
import type { ModeratedContentMessage } from '../../../../../common/live';
import { filterMessages } from '../../chat/api/chat';
import { commentListsRoot, filterComments } from '../../comments/api/comments';
import { filterNotifications, NOTIFICATIONS } from '../../notifications/api/notifications';
import { dropPicture, picturesRoot } from '../../pictures/api/pictures';
import { MODERATION, removedPicturesKey } from '../api/moderation';

/**
 * Removed content leaves every cache that shows it at once (docs/product.md#moderation): a picture leaves the walls
 * and its page says it was removed, a comment or reply leaves its picture's comments, a chat message the room, and
 * the notifications about any of them go too.
 */
export function removeContent(client: QueryClient, { contentType, contentId }: ModeratedContentMessage): void {
  switch (contentType) {
    case 'PICTURE':
      dropPicture(client, contentId);
      client.setQueryData<number[]>(removedPicturesKey, (old = []) =>
        old.includes(contentId) ? old : [...old, contentId],
      );
      filterNotifications(client, (n) => n.pictureId !== contentId);
      return;
    case 'COMMENT':
      filterComments(client, (c) => c.id !== contentId);
      filterNotifications(client, (n) => n.commentId !== contentId);
      return;
    case 'CHAT':
      filterMessages(client, (m) => m.id !== contentId);
      return;
  }
}

/** A reversed appeal restored the content: whatever could show it is read again. */
export function restoreContent(client: QueryClient, { contentType, contentId }: ModeratedContentMessage): void {
  switch (contentType) {
    case 'PICTURE':
      client.setQueryData<number[]>(removedPicturesKey, (old = []) => old.filter((id) => id !== contentId));
      void client.invalidateQueries({ queryKey: picturesRoot });
      break;
    case 'COMMENT':
      void client.invalidateQueries({ queryKey: commentListsRoot });
      break;
    case 'CHAT':
      void client.invalidateQueries({ queryKey: ['chat', 'messages'] });
      break;
  }
  void client.invalidateQueries({ queryKey: NOTIFICATIONS });
  void client.invalidateQueries({ queryKey: [...MODERATION, 'mine'] });
}
