import type { PushSubscriptionBody } from '../../../../common/api/push';
import { CHAT_PUSH_EVERY_MS, chatPush } from '../../../../common/push-messages';
import type { Executor } from '../../db/connection';
import { MAX_PUSH_DEVICES, PUSH_TYPES, type PushMessage, type PushType } from '../../../../common/push';
import type { AppContext } from '../../context';
import type { Work } from '../../db/unit-of-work';
import type { Identity } from '../../http/auth';
import { badRequest, fieldError } from '../../http/errors';
import { endpointError, keysError, nextAttemptAt } from './push-rules';
import { newVapidPair, sendPush, type PushOutcome, type Vapid } from './push-sender';
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

// The VAPID key (docs/decisions.md "Issue 27: the push outbox and VAPID keys").

/** Each app's pair, loaded once: from the environment, else the one kept in its database (made on first need). */
const vapids = new WeakMap<AppContext['db'], Promise<Vapid>>();

export function vapidOf(ctx: AppContext): Promise<Vapid> {
  let found = vapids.get(ctx.db);
  if (!found) {
    found = (async () => {
      const subject = ctx.config.vapidSubject;
      if (ctx.config.vapidKeys) return { ...ctx.config.vapidKeys, subject };
      const kept = await repo.keepVapid(ctx.db, newVapidPair());
      return { publicKey: kept.public_key, privateKey: kept.private_key, subject };
    })();
    vapids.set(ctx.db, found);
    // The database away: the next call tries again.
    found.catch(() => vapids.delete(ctx.db));
  }
  return found;
}

// A device's subscription and the user's switches.

/**
 * Turns push on for the caller's device, or renews it: idempotent per endpoint, owned by the session it came with
 * (signing out removes it). A user keeps at most MAX_PUSH_DEVICES; the one subscribed longest ago goes.
 */
export async function subscribe(ctx: AppContext, caller: Identity, body: PushSubscriptionBody): Promise<void> {
  const refused = endpointError(body.endpoint, ctx.config.pushAllowHttp);
  if (refused) throw fieldError('endpoint', refused);
  const badKeys = keysError(body.keys);
  if (badKeys) throw badRequest([badKeys]);
  const subscription: repo.NewSubscription = {
    userId: caller.userId,
    sessionHash: caller.session,
    endpoint: body.endpoint,
    p256dh: body.keys.p256dh.replace(/=+$/, ''),
    auth: body.keys.auth.replace(/=+$/, ''),
    now: ctx.now(),
  };
  await ctx.transact(async (work) => {
    await repo.upsertSubscription(work.tx, subscription);
    await repo.trimSubscriptions(work.tx, caller.userId, MAX_PUSH_DEVICES);
  });
}

/** Turns push off for one of the caller's devices; answers whether it was theirs (someone else's is left alone). */
export function unsubscribe(ctx: AppContext, userId: number, endpoint: string): Promise<boolean> {
  return repo.deleteSubscription(ctx.db, userId, endpoint);
}

/** The types the user switched off (every other type is on). */
export async function mutedTypes(ctx: AppContext, userId: number): Promise<PushType[]> {
  const muted = new Set(await repo.mutedTypes(ctx.db, userId));
  return PUSH_TYPES.filter((type) => muted.has(type));
}

/** Sets every switch at once; answers the types now switched off. */
export async function setPreferences(
  ctx: AppContext,
  userId: number,
  switches: Record<PushType, boolean>,
): Promise<PushType[]> {
  const muted = PUSH_TYPES.filter((type) => !switches[type]);
  await ctx.transact((work) => repo.setMutedTypes(work.tx, userId, muted));
  return muted;
}

// The outbox, as the push job works it (docs/decisions.md "Issue 27: the push outbox and VAPID keys").

/** How long a try holds its pushes: well past a request's deadline, so no other instance sends them meanwhile. */
const HOLD_MS = 60_000;
/** A push service that has not answered in this long is tried again later. */
export const PUSH_TIMEOUT_MS = 10_000;
/** Pushes one run of the job takes at most. */
const BATCH = 200;

export interface DuePush {
  id: number;
  subscriptionId: number;
  payload: string;
  attempts: number;
  expiresAt: Date;
  device: { endpoint: string; p256dh: string; auth: string };
}

/** Takes the pushes due now (held for this try) and drops those that expired unsent; inside the job's transaction. */
export async function takeDuePushes(ctx: AppContext, work: Work): Promise<DuePush[]> {
  const now = ctx.now();
  const rows = await repo.takeDuePushes(work.tx, {
    now,
    holdUntil: new Date(now.getTime() + HOLD_MS),
    limit: BATCH,
  });
  return rows.map((r) => ({
    id: Number(r.id),
    subscriptionId: Number(r.subscription_id),
    payload: r.payload,
    attempts: Number(r.attempts),
    expiresAt: new Date(r.expires_at),
    device: { endpoint: r.endpoint, p256dh: r.p256dh, auth: r.auth },
  }));
}

/** Sends still under way, per app: the job does not wait for them, shutting down does (`settlePushes`). */
const inFlight = new WeakMap<AppContext['db'], Set<Promise<void>>>();

/**
 * Sends the pushes taken, all at once, each with its deadline, and answers at once: a slow push service delays
 * nothing else. Each outcome is written when it comes: sent, the row goes; the device gone, the subscription goes
 * (and what was queued for it); refused for good, the row goes; else the try is counted and the next one scheduled
 * with a growing wait, or the push dropped once that would pass its expiry.
 */
export function sendPushes(ctx: AppContext, due: readonly DuePush[]): void {
  if (due.length === 0) return;
  let running = inFlight.get(ctx.db);
  if (!running) inFlight.set(ctx.db, (running = new Set()));
  const sends = running;
  const send = (async () => {
    let vapid: Vapid;
    try {
      vapid = await vapidOf(ctx);
    } catch (err) {
      // The database away: the pushes stay held, and are tried again once the hold runs out.
      ctx.log.warn({ reason: (err as Error).message }, 'push not sent: no VAPID key');
      return;
    }
    await Promise.all(due.map((push) => deliver(ctx, vapid, push)));
  })();
  sends.add(send);
  void send.finally(() => sends.delete(send));
}

/** Waits for the sends under way (shutting down, and tests). */
export async function settlePushes(ctx: AppContext): Promise<void> {
  const running = inFlight.get(ctx.db);
  while (running && running.size > 0) await Promise.all(running);
}

async function deliver(ctx: AppContext, vapid: Vapid, push: DuePush): Promise<void> {
  const ttlSeconds = (push.expiresAt.getTime() - ctx.now().getTime()) / 1000;
  const outcome = await sendPush(vapid, push.device, push.payload, { ttlSeconds, timeoutMs: PUSH_TIMEOUT_MS });
  // The database away: the push stays held and is tried again once the hold runs out (sent twice, at worst).
  await settle(ctx, push, outcome).catch((err: Error) =>
    ctx.log.warn({ pushId: push.id, reason: err.message }, 'push outcome not recorded'),
  );
}

async function settle(ctx: AppContext, push: DuePush, outcome: PushOutcome): Promise<void> {
  switch (outcome.kind) {
    case 'sent':
      return repo.deletePush(ctx.db, push.id);
    case 'gone':
      ctx.log.info({ subscriptionId: push.subscriptionId, reason: outcome.reason }, 'push device gone: dropped');
      return repo.dropSubscription(ctx.db, push.subscriptionId);
    case 'refused':
      ctx.log.warn({ pushId: push.id, reason: outcome.reason }, 'push refused by the push service: dropped');
      return repo.deletePush(ctx.db, push.id);
    case 'failed': {
      const attempts = push.attempts + 1;
      const next = nextAttemptAt(attempts, ctx.now(), push.expiresAt);
      ctx.log.warn({ pushId: push.id, attempts, reason: outcome.reason }, 'push not sent: queued for a retry');
      if (!next) return repo.deletePush(ctx.db, push.id);
      return repo.reschedulePush(ctx.db, push.id, { attempts, nextAttemptAt: next, error: outcome.reason });
    }
  }
}
