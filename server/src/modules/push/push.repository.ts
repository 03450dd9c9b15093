import { sql } from 'drizzle-orm';
import type { PushMessage } from '../../../../common/push';
import { sqlRows, type Columns, type Executor } from '../../db/connection';
import type { users } from '../../db/core.tables';
import type { pushMuted, pushOutbox, pushSubscriptions, pushVapid } from './push.tables';

/** All of push's SQL (docs/product.md#push), taking the db or the transaction of a command. */

/**
 * Queues a message to every device of each user who has not switched its type off: one outbox row per device, in
 * the caller's transaction. A user with no subscription costs one index probe and queues nothing. A device whose
 * session expired gets nothing: that browser is signed out, though its session row waits for the next tidy-up.
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
          FROM push_subscriptions s JOIN sessions se ON se.token_hash = s.session_hash AND se.expires_at > ${at.now}
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
            JOIN sessions se ON se.token_hash = s.session_hash AND se.expires_at > ${q.now}
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
          FROM push_subscriptions s JOIN sent ON sent.user_id = s.user_id
          JOIN sessions se ON se.token_hash = s.session_hash AND se.expires_at > ${q.now}`,
  );
}

// Subscriptions: one row per endpoint, owned by the session that made it.

export interface NewSubscription {
  userId: number;
  sessionHash: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  now: Date;
}

/**
 * Stores a device's subscription, or renews the one of its endpoint: keys, session and date are the latest. An
 * endpoint another user had is theirs no longer: that row goes first, with what was queued for it, so nothing of
 * theirs reaches the device now signed in as someone else.
 */
export async function upsertSubscription(exec: Executor, s: NewSubscription): Promise<void> {
  await exec.execute(sql`DELETE FROM push_subscriptions WHERE endpoint = ${s.endpoint} AND user_id <> ${s.userId}`);
  await exec.execute(
    sql`INSERT INTO push_subscriptions (user_id, session_hash, endpoint, p256dh, auth, created_at)
        VALUES (${s.userId}, ${s.sessionHash}, ${s.endpoint}, ${s.p256dh}, ${s.auth}, ${s.now})
        ON CONFLICT (endpoint) DO UPDATE SET user_id = EXCLUDED.user_id, session_hash = EXCLUDED.session_hash,
          p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth, created_at = EXCLUDED.created_at`,
  );
}

/** Keeps a user's `keep` newest subscriptions and deletes the rest (with what was queued for them). */
export async function trimSubscriptions(exec: Executor, userId: number, keep: number): Promise<void> {
  await exec.execute(
    sql`DELETE FROM push_subscriptions WHERE user_id = ${userId} AND id NOT IN (
          SELECT id FROM push_subscriptions WHERE user_id = ${userId} ORDER BY created_at DESC, id DESC LIMIT ${keep})`,
  );
}

/** Deletes the user's subscription of this endpoint; answers whether there was one. */
export async function deleteSubscription(exec: Executor, userId: number, endpoint: string): Promise<boolean> {
  const gone = await sqlRows(
    exec,
    sql<Columns<typeof pushSubscriptions, 'id'>>`DELETE FROM push_subscriptions
        WHERE user_id = ${userId} AND endpoint = ${endpoint} RETURNING id`,
  );
  return gone.length > 0;
}

/** Deletes a subscription the push service no longer knows (404, 410), with what was queued for it. */
export async function dropSubscription(exec: Executor, id: number): Promise<void> {
  await exec.execute(sql`DELETE FROM push_subscriptions WHERE id = ${id}`);
}

// The switches: a row per type switched off.

export async function mutedTypes(exec: Executor, userId: number): Promise<string[]> {
  const rows = await sqlRows(
    exec,
    sql<Columns<typeof pushMuted, 'type'>>`SELECT type FROM push_muted WHERE user_id = ${userId}`,
  );
  return rows.map((r) => r.type);
}

/** Replaces the user's switched-off types with `types`. */
export async function setMutedTypes(exec: Executor, userId: number, types: readonly string[]): Promise<void> {
  await exec.execute(sql`DELETE FROM push_muted WHERE user_id = ${userId}`);
  if (types.length === 0) return;
  const rows = sql.join(
    types.map((type) => sql`(${userId}, ${type})`),
    sql`, `,
  );
  await exec.execute(sql`INSERT INTO push_muted (user_id, type) VALUES ${rows} ON CONFLICT DO NOTHING`);
}

// The outbox, as the push job works it.

export type DuePushRow = Columns<typeof pushOutbox, 'id' | 'subscription_id' | 'payload' | 'attempts' | 'expires_at'> &
  Columns<typeof pushSubscriptions, 'endpoint' | 'p256dh' | 'auth'>;

/**
 * Takes up to `limit` pushes due at `now` for one try: they are held until `holdUntil` (no other instance takes
 * them meanwhile; one that dies while sending leaves them to a try after it), and those past their expiry go. Both
 * walk only the due rows, by the index on next_attempt_at: an empty outbox costs two index probes.
 */
export async function takeDuePushes(
  exec: Executor,
  at: { now: Date; holdUntil: Date; limit: number },
): Promise<DuePushRow[]> {
  await exec.execute(sql`DELETE FROM push_outbox WHERE next_attempt_at <= ${at.now} AND expires_at <= ${at.now}`);
  return sqlRows(
    exec,
    sql<DuePushRow>`WITH due AS (
          SELECT id FROM push_outbox WHERE next_attempt_at <= ${at.now}
           ORDER BY next_attempt_at LIMIT ${at.limit} FOR UPDATE SKIP LOCKED),
        held AS (
          UPDATE push_outbox o SET next_attempt_at = ${at.holdUntil} FROM due WHERE o.id = due.id
          RETURNING o.id, o.subscription_id, o.payload, o.attempts, o.expires_at)
        SELECT h.id, h.subscription_id, h.payload, h.attempts, h.expires_at, s.endpoint, s.p256dh, s.auth
          FROM held h JOIN push_subscriptions s ON s.id = h.subscription_id`,
  );
}

/** A push sent (or one no try can send): its row goes. */
export async function deletePush(exec: Executor, id: number): Promise<void> {
  await exec.execute(sql`DELETE FROM push_outbox WHERE id = ${id}`);
}

/** A failed try, counted, with the next one's time. */
export async function reschedulePush(
  exec: Executor,
  id: number,
  retry: { attempts: number; nextAttemptAt: Date; error: string },
): Promise<void> {
  await exec.execute(
    sql`UPDATE push_outbox SET attempts = ${retry.attempts}, next_attempt_at = ${retry.nextAttemptAt},
          last_error = ${retry.error} WHERE id = ${id}`,
  );
}

// The VAPID pair, made on first start when the environment gives none.

export type VapidRow = Columns<typeof pushVapid, 'public_key' | 'private_key'>;

/**
 * Keeps `pair` unless a pair is already kept, and answers the kept one: two instances starting at once each offer
 * their own, one wins, and both read the winner.
 */
export async function keepVapid(exec: Executor, pair: { publicKey: string; privateKey: string }): Promise<VapidRow> {
  await exec.execute(
    sql`INSERT INTO push_vapid (id, public_key, private_key) VALUES (1, ${pair.publicKey}, ${pair.privateKey})
        ON CONFLICT (id) DO NOTHING`,
  );
  const [row] = await sqlRows(exec, sql<VapidRow>`SELECT public_key, private_key FROM push_vapid WHERE id = 1`);
  return row!;
}
