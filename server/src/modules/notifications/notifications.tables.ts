import { bigint, boolean, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../../db/core.tables';

/**
 * What happened to a user, recorded in the transaction that caused it. The notifications feature reads, groups
 * (DESIGN.md §4) and delivers these; the features that cause them only append.
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
    seen: boolean('seen').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('notification_events_user').on(t.userId, t.createdAt)],
);
