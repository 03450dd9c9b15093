import type { Executor } from '../../db/connection';
import { insertEvents } from './notifications.repository';

/** SPEC §3 notification topics. */
export type NotificationTopic =
  | 'IMAGE_COMMENT'
  | 'ITEM_SOLD'
  | 'ITEM_BOUGHT'
  | 'IMAGE_OVERTOOK'
  | 'COMMENT_REPLY'
  | 'IMAGE_LIKE'
  | 'IMAGE_COMMENT_REACTED'
  | 'SYSTEM_MESSAGE';

export interface NotificationEvent {
  /** Who is notified. */
  userId: number;
  topic: NotificationTopic;
  actorId?: number | null;
  pictureId?: number | null;
  commentId?: number | null;
  amount?: number | null;
  item?: string | null;
  message?: string | null;
}

/**
 * Records events in the caller's transaction, so an event exists exactly when the change behind it committed.
 * Delivery (grouping, the live `notification` channel) belongs to the notifications feature.
 */
export async function recordEvents(exec: Executor, events: readonly NotificationEvent[]): Promise<void> {
  if (events.length > 0) await insertEvents(exec, events);
}
