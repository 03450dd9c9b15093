import type { PushMessage } from '../../../../common/push';
import type { Work } from '../../db/unit-of-work';
import * as repo from './push.repository';

/*
 * Web Push (docs/product.md#push): what other modules call. A module whose event deserves a push queues it here, in
 * the transaction of the event, so a push exists exactly when the change behind it committed; the push job sends
 * it after the commit (never the request that caused it), with retries.
 */

/** How long a queued push may wait for its device before it is dropped unsent. */
export const PUSH_TTL_SECONDS = 24 * 60 * 60;

/** Queues `message` to every device of each of `userIds` that has its type switched on. */
export async function queuePush(
  work: Work,
  userIds: number | readonly number[],
  message: PushMessage,
  now: Date,
): Promise<void> {
  const ids = typeof userIds === 'number' ? [userIds] : [...new Set(userIds)];
  await repo.queuePushes(work.tx, ids, message, { now, expiresAt: new Date(now.getTime() + PUSH_TTL_SECONDS * 1000) });
}
