import type { Executor } from '../../db/connection';
import type { SQL } from 'drizzle-orm';
import { insertEvents, insertSql } from './notifications.repository';

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

/**
 * The same record as SQL, for a command that writes it in one statement with its own changes (a market order
 * writes its book, its trades and its makers' events at once); undefined when there is nothing to record.
 */
export function eventsInsert(events: readonly NotificationEvent[]): SQL | undefined {
  return events.length > 0 ? insertSql(events) : undefined;
}
