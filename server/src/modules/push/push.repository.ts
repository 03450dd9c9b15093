import { sql } from 'drizzle-orm';
import type { PushMessage } from '../../../../common/push';
import { sqlRows, type Columns, type Executor } from '../../db/connection';
import type { users } from '../../db/core.tables';
import type { pushOutbox } from './push.tables';

/** All of push's SQL (docs/product.md#push), taking the db or the transaction of a command. */

/**
 * Queues a message to every device of each user who has not switched its type off: one outbox row per device, in
 * the caller's transaction. A user with no subscription costs one index probe and queues nothing.
 */
export async function queuePushes(
  exec: Executor,
  userIds: readonly number[],
  message: PushMessage,
  at: { now: Date; expiresAt: Date },
): Promise<void> {
  if (userIds.length === 0) return;
  const ids = `{${userIds.join(',')}}`;
  await exec.execute(
    sql`INSERT INTO push_outbox (subscription_id, payload, next_attempt_at, expires_at)
        SELECT s.id, ${JSON.stringify(message)}, ${at.now}, ${at.expiresAt}
          FROM push_subscriptions s
         WHERE s.user_id = ANY(${ids}::bigint[])
           AND NOT EXISTS (SELECT 1 FROM push_muted m WHERE m.user_id = s.user_id AND m.type = ${message.type})`,
  );
}

export type QueuedPushRow = Columns<typeof pushOutbox, 'id' | 'subscription_id' | 'payload' | 'attempts'>;

/** What is queued for a user's devices, oldest first (tests, and the job reads it joined to the subscriptions). */
export function queuedFor(exec: Executor, userId: number): Promise<QueuedPushRow[]> {
  return sqlRows(
    exec,
    sql<QueuedPushRow>`SELECT o.id, o.subscription_id, o.payload, o.attempts
        FROM push_outbox o JOIN push_subscriptions s ON s.id = o.subscription_id
       WHERE s.user_id = ${userId} ORDER BY o.id`,
  );
}

/** The names a push quotes (an actor's, a sender's): user id → username (null: none chosen). */
export async function usernamesOf(exec: Executor, userIds: readonly number[]): Promise<Map<number, string | null>> {
  if (userIds.length === 0) return new Map();
  const rows = await sqlRows(
    exec,
    sql<Columns<typeof users, 'id' | 'username'>>`SELECT id, username FROM users
       WHERE id = ANY(${`{${userIds.join(',')}}`}::bigint[])`,
  );
  return new Map(rows.map((r) => [Number(r.id), r.username]));
}

/**
 * A chat message's CHAT push, in one statement: to each device of every user with a subscription who is not the
 * sender, not in the room (`inRoom`), has not switched CHAT off, has not blocked the sender and was not pushed
 * about the chat since `notSince`; at most `limit` users per message (the rest are due on the next one). Each such
 * user's push_chat_sent becomes `now`. Sends take the room in turn (chat.repository.ts lockRoom), so two messages
 * never pick the same user; the guarded upsert keeps it so anyway.
 */
export async function queueChatPushes(
  exec: Executor,
  q: {
    senderId: number;
    inRoom: readonly number[];
    message: PushMessage;
    notSince: Date;
    limit: number;
    now: Date;
    expiresAt: Date;
  },
): Promise<void> {
  const inRoom = `{${q.inRoom.join(',')}}`;
  await exec.execute(
    sql`WITH due AS (
          SELECT DISTINCT s.user_id FROM push_subscriptions s
           WHERE s.user_id <> ${q.senderId}
             AND NOT (s.user_id = ANY(${inRoom}::bigint[]))
             AND NOT EXISTS (SELECT 1 FROM push_muted m WHERE m.user_id = s.user_id AND m.type = ${q.message.type})
             AND NOT EXISTS (SELECT 1 FROM user_blocks b WHERE b.blocker_id = s.user_id AND b.blocked_id = ${q.senderId})
             AND NOT EXISTS (SELECT 1 FROM push_chat_sent c WHERE c.user_id = s.user_id AND c.sent_at > ${q.notSince})
           LIMIT ${q.limit}),
        sent AS (
          INSERT INTO push_chat_sent (user_id, sent_at) SELECT user_id, ${q.now} FROM due
          ON CONFLICT (user_id) DO UPDATE SET sent_at = excluded.sent_at
            WHERE push_chat_sent.sent_at <= ${q.notSince}
          RETURNING user_id)
        INSERT INTO push_outbox (subscription_id, payload, next_attempt_at, expires_at)
        SELECT s.id, ${JSON.stringify(q.message)}, ${q.now}, ${q.expiresAt}
          FROM push_subscriptions s JOIN sent ON sent.user_id = s.user_id`,
  );
}
