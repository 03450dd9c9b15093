import { sql } from 'drizzle-orm';
import { bigint, boolean, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../../db/core.tables';

/**
 * What happened to a user, recorded in the transaction that caused it. The notifications feature reads, groups
 * (docs/product.md#notifications) and delivers these; the features that cause them only append.
 *
 * Grouping happens at read time: unseen events of one user, topic and `target` fold into one notification whose id
 * is their latest event's id. Marking it read stores that id in `fold` on each of its events, so a read
 * notification stays one notification.
 */
export const notificationEvents = pgTable(
  'notification_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** Who is notified. */
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    topic: text('topic').notNull(),
    /** Who caused it, when a user did. */
    actorId: bigint('actor_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    pictureId: bigint('picture_id', { mode: 'number' }),
    commentId: bigint('comment_id', { mode: 'number' }),
    amount: bigint('amount', { mode: 'number' }),
    item: text('item'),
    message: text('message'),
    /** What unseen events fold on, with the topic: `p:<picture>`, `c:<comment>`, `i:<item>` or `e:<nothing>`. */
    target: text('target').notNull().default(''),
    seen: boolean('seen').notNull().default(false),
    /** Once seen: the id of the notification it was read as (the latest event of its fold then). */
    fold: bigint('fold', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  // No index by user alone: every read names seen or unseen, which the partial indexes below serve (docs/decisions.md,
  // "Issue 28: less work per market order").
  (t) => [
    // The unread count and the unread list: an index-only walk of the user's unseen folds.
    index('notification_events_unseen')
      .on(t.userId, t.topic, t.target, t.id)
      .where(sql`NOT ${t.seen}`),
    // The newest unseen events of a user, for the unread list's first folds.
    index('notification_events_recent')
      .on(t.userId, t.id)
      .where(sql`NOT ${t.seen}`),
    // The read list: folds in id order, newest first, a page at a time.
    index('notification_events_read')
      .on(t.userId, t.fold)
      .where(sql`${t.seen}`),
  ],
);
