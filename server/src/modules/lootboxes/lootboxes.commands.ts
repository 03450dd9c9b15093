import type { LootboxResult } from '../../../../common/api/lootboxes';
import { KEY_PRICE_CENTS, MAX_LOOTBOXES } from '../../../../common/lootboxes';
import { sql } from 'drizzle-orm';
import { ODDS_VERSION } from '../../../../common/fairness';
import { sqlRows } from '../../db/connection';
import { int, literal, type Events, type OneCaller } from '../../db/one-call';
import { audience, type Work } from '../../db/unit-of-work';
import { fieldError } from '../../http/errors';
import { asMember, suspendedRefusal, type SuspendedAnswer } from '../../http/membership';
import * as ledger from '../../ledger/commands';
import { addKeys, addLootbox } from './lootboxes.repository';
import { ensureSeed } from './seeds';

/*
 * The lootbox's changes, each one command taking the unit of work: money through the ledger, the counters, the
 * opening's record, its items and the live counters commit or fail together. An opening is one call of the database
 * (below), which mints its items as the ledger's mintLoot would.
 */

export const TEXT = {
  tooManyBoxes: `You already have ${MAX_LOOTBOXES} loot boxes. Open one first.`,
  noBox: 'Get a loot box first.',
  noKey: 'Buy a key first.',
} as const;

/** Keys for money, half of it to the buyer's cause: answers the count after the purchase. */
export async function buyKeys(work: Work, userId: number, count: number): Promise<number> {
  await ledger.buyKeys(work, { userId, count, unitPrice: KEY_PRICE_CENTS });
  const { keyCount } = await addKeys(work.tx, userId, count);
  work.emit('keyCount', 'update', { value: keyCount }, audience.user(userId));
  return keyCount;
}

/** One free box, up to MAX_LOOTBOXES unopened: answers the count after it. */
export async function getLootbox(work: Work, userId: number): Promise<number> {
  const counters = await addLootbox(work.tx, userId, MAX_LOOTBOXES);
  if (!counters) throw fieldError('lootBoxCount', TEXT.tooManyBoxes);
  work.emit('lootBoxCount', 'update', { value: counters.lootBoxCount }, audience.user(userId));
  return counters.lootBoxCount;
}

type Opened = LootboxResult | { refused: 'noBox' | 'noKey' | 'noSeed' } | SuspendedAnswer;

/** The call of one opening: every value a number of ours or a time we wrote, so it has no parameters. */
const openCall = (userId: number, now: Date) =>
  `lootbox_open(${int(userId)}, ${int(ODDS_VERSION)}, ${literal(now.toISOString())}::timestamptz)`;

/** The user has no seed yet: their first opening makes one (seeds.ts), then opens again. */
const NO_SEED = Symbol('no seed');

function answerOf(r: Opened, userId: number, events: Events): LootboxResult | typeof NO_SEED {
  if ('refused' in r) {
    if (r.refused === 'noSeed') return NO_SEED;
    if (r.refused === 'suspended') throw suspendedRefusal(r);
    throw r.refused === 'noBox' ? fieldError('lootBoxCount', TEXT.noBox) : fieldError('keyCount', TEXT.noKey);
  }
  events.emit('keyCount', 'update', { value: r.keyCount }, audience.user(userId));
  events.emit('lootBoxCount', 'update', { value: r.lootBoxCount }, audience.user(userId));
  return r;
}

/**
 * Opens a box with a key (docs/product.md#fairness): the database's `lootbox_open` (migration 0020, docs/decisions.md
 * "Issue 28: a lootbox opening in one call") takes the box and the key, the user's seed at its next nonce and the
 * tier weights of the elusive units on sale, draws as common/fairness.ts's drawOpening does (draw.test.ts holds it to
 * it), records the opening so anyone can recompute it once the seed is revealed, and mints its five items as the
 * ledger's mintLoot would, in one statement. A refusal (no box, no key) has written nothing.
 *
 * This one runs in the caller's transaction (a keyed call's, under its savepoint: http/idempotency.ts); the route
 * without a key calls openLootboxInOneCall below.
 */
export async function openLootbox(work: Work, userId: number, now: Date): Promise<LootboxResult> {
  for (let attempt = 0; ; attempt++) {
    const [row] = await sqlRows(work.tx, sql<{ r: Opened }>`SELECT ${sql.raw(openCall(userId, now))} AS r`);
    const result = answerOf(row!.r, userId, work);
    if (result !== NO_SEED) return result;
    if (attempt > 0) throw new Error(`no seed in use for user ${userId}`);
    await ensureSeed(work.tx, userId);
  }
}

/**
 * An opening as a transaction of its own in one round trip (db/one-call.ts): BEGIN, the call and COMMIT travel
 * together. A user's first opening makes their seed first (a second transaction, once in their life).
 */
export async function openLootboxInOneCall(c: OneCaller, userId: number, now: Date): Promise<LootboxResult> {
  for (let attempt = 0; ; attempt++) {
    const result = await c.transactCall<{ r: Opened }, LootboxResult | typeof NO_SEED>(
      // A member calling without an Idempotency-Key: the opening waits for a suspension being written, and is
      // refused once it is (http/membership.ts).
      `SELECT ${asMember(userId, now, openCall(userId, now))} AS r`,
      ([row], events) => answerOf(row!.r, userId, events),
    );
    if (result !== NO_SEED) return result;
    if (attempt > 0) throw new Error(`no seed in use for user ${userId}`);
    await ensureSeed(c.db, userId);
  }
}
