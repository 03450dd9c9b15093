import type { PushMessage } from '../../../../common/push';
import { CHAT_PUSH_EVERY_MS, chatPush } from '../../../../common/push-messages';
import type { Executor } from '../../db/connection';
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

/** The names a push's text quotes: user id → username (null when the user chose none). */
export function pushNames(exec: Executor, userIds: readonly number[]): Promise<Map<number, string | null>> {
  return repo.usernamesOf(exec, [...new Set(userIds)]);
}

/** How many users one chat message may push at most; those left over are due on the next message. */
export const CHAT_PUSH_BATCH = 500;

/**
 * A chat message's pushes (docs/decisions.md "Issue 27: which events push"): every user with push on who is away
 * from the room (not in `inRoom`), is not its sender and did not block the sender gets a CHAT push, unless one went
 * to them in the last CHAT_PUSH_EVERY_MS. One bounded statement in the message's transaction.
 */
export async function queueChatPush(
  work: Work,
  m: { senderId: number; senderName: string | null; text: string; inRoom: Iterable<number>; now: Date },
): Promise<void> {
  await repo.queueChatPushes(work.tx, {
    senderId: m.senderId,
    inRoom: [...m.inRoom],
    message: chatPush({ senderName: m.senderName, text: m.text }),
    notSince: new Date(m.now.getTime() - CHAT_PUSH_EVERY_MS),
    limit: CHAT_PUSH_BATCH,
    now: m.now,
    expiresAt: new Date(m.now.getTime() + PUSH_TTL_SECONDS * 1000),
  });
}
