import { bigint, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../../db/core.tables';

/**
 * The chat's messages. Only the columns the reports need to exist are here: the chat (issue 12, another branch)
 * owns this file and declares the same columns; at merge one of the two is kept.
 */
export const chatMessages = pgTable('chat_messages', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  senderId: bigint('sender_id', { mode: 'number' })
    .notNull()
    .references(() => users.id),
  body: text('body').notNull(),
  cost: bigint('cost', { mode: 'number' }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
