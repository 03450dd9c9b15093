import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../../db/core.tables';

const at = <N extends string>(name: N) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Every message of the General room and what it cost; its journal entry (CHAT_MESSAGE) names it as resource. */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    senderId: bigint('sender_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    body: text('body').notNull(),
    /** Cents charged. */
    cost: bigint('cost', { mode: 'number' }).notNull(),
    /** The unit price it was charged at. */
    unitPrice: bigint('unit_price', { mode: 'number' }).notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    /** When a moderator removed it (docs/product.md#moderation); a removed message is in no list. */
    removedAt: at('removed_at'),
  },
  (t) => [
    // The last minute's count (the price) reads this.
    index('chat_messages_created_at').on(t.createdAt),
    check('chat_messages_cost_positive', sql`${t.cost} > 0`),
  ],
);

/**
 * The room: one row (id 1). Sends take it `FOR UPDATE`, so the room's messages are priced one at a time on an
 * exact count; it also holds the last price and online count broadcast, so any instance can tell a change.
 */
export const chatRooms = pgTable('chat_rooms', {
  id: integer('id').primaryKey(),
  /** Messages ever sent; `chat_last_seen` subtracts from it for missedMessage. */
  messageCount: bigint('message_count', { mode: 'number' }).notNull().default(0),
  /** The unit price last broadcast with newMessagePrice, cents (0: none yet). */
  unitPrice: bigint('unit_price', { mode: 'number' }).notNull().default(0),
  /** The online count last broadcast with onlineUserCount. */
  onlineCount: integer('online_count').notNull().default(0),
});

/** Where each user left the room: the room's message count when their last chat socket closed. */
export const chatLastSeen = pgTable('chat_last_seen', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id),
  seenCount: bigint('seen_count', { mode: 'number' }).notNull(),
  seenAt: at('seen_at').notNull().defaultNow(),
});
