import { sql } from 'drizzle-orm';
import type { PushMessage } from '../../../../common/push';
import { sqlRows, type Columns, type Executor } from '../../db/connection';
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
