import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../../db/core.tables';

/**
 * Reports of comments and chat messages (POST /api/user/report-message, docs/product.md#reports), kept for the admin console's
 * Reports tab. `message_id` names a row of `comments` or `chat_messages` as `type` says, so it has no foreign key.
 * One report per user and message: the unique index makes a second one a conflict (409) that stores nothing.
 */
export const reports = pgTable(
  'reports',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    reporterId: bigint('reporter_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    type: text('type', { enum: ['COMMENT', 'CHAT', 'PICTURE'] }).notNull(),
    messageId: bigint('message_id', { mode: 'number' }).notNull(),
    reason: text('reason').notNull(),
    description: text('description').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('reports_once_per_user').on(t.reporterId, t.type, t.messageId),
    index('reports_newest').on(t.createdAt, t.id),
    check('reports_type', sql`${t.type} IN ('COMMENT', 'CHAT', 'PICTURE')`),
  ],
);
