import { bigint, index, integer, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { sessions, users } from '../../db/core.tables';

/**
 * A browser's push subscription (docs/product.md#push), one row per endpoint. It belongs to the session that made
 * it: signing out deletes the session and, through the cascade, this device's subscription.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sessionHash: text('session_hash')
      .notNull()
      .references(() => sessions.tokenHash, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull().unique('push_subscriptions_endpoint'),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('push_subscriptions_user').on(t.userId), index('push_subscriptions_session').on(t.sessionHash)],
);

/** A type of push a user switched off (docs/product.md#push): no row, the type is on. */
export const pushMuted = pgTable(
  'push_muted',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.type] })],
);

/**
 * A push waiting to go to one device (docs/product.md#push), queued in the transaction of the event it tells about
 * and sent by the push job after the commit, with retries; sent or dropped, its row goes.
 */
export const pushOutbox = pgTable(
  'push_outbox',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    subscriptionId: bigint('subscription_id', { mode: 'number' })
      .notNull()
      .references(() => pushSubscriptions.id, { onDelete: 'cascade' }),
    /** The PushMessage's JSON (common/push.ts), encrypted only when sent. */
    payload: text('payload').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    lastError: text('last_error'),
  },
  (t) => [index('push_outbox_due').on(t.nextAttemptAt)],
);

/** The server's VAPID key pair, made on first start when VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY are unset. One row. */
export const pushVapid = pgTable('push_vapid', {
  id: smallint('id').primaryKey().default(1),
  publicKey: text('public_key').notNull(),
  privateKey: text('private_key').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * When each user was last pushed about the chat (docs/decisions.md "Issue 27: which events push"): a CHAT push goes
 * to a user away from the room at most once per CHAT_PUSH_EVERY_MS (common/push-messages.ts). No row: never pushed.
 */
export const pushChatSent = pgTable('push_chat_sent', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }).notNull(),
});
