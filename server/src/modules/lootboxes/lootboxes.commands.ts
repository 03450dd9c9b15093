import type { LootboxResult } from '../../../../common/api/lootboxes';
import { KEY_PRICE_CENTS, MAX_LOOTBOXES } from '../../../../common/lootboxes';
import { ODDS_VERSION, drawOpening, tierWeights } from '../../../../common/fairness';
import { audience, type Work } from '../../db/unit-of-work';
import { fieldError } from '../../http/errors';
import * as ledger from '../../ledger/commands';
import { elusiveUnitsOnSale } from '../items/items.service';
import { addKeys, addLootbox, countersOf, insertOpening, takeBoxAndKey, takeNonce } from './lootboxes.repository';
import { ensureSeed } from './seeds';

/*
 * The lootbox's changes, each one command taking the unit of work: money through the ledger, items minted through
 * the ledger, the counters, the opening's record and the live counters commit or fail together.
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

/**
 * Opens a box with a key: the draw of the user's seed at its next nonce (docs/product.md#fairness), its five items minted to the
 * user, the opening recorded so anyone can recompute it once the seed is revealed.
 */
export async function openLootbox(work: Work, userId: number, now: Date): Promise<LootboxResult> {
  const counters = await takeBoxAndKey(work.tx, userId);
  if (!counters) {
    const had = await countersOf(work.tx, userId);
    throw !had || had.lootBoxCount < 1 ? fieldError('lootBoxCount', TEXT.noBox) : fieldError('keyCount', TEXT.noKey);
  }
  const seed = await nextNonce(work, userId);
  const weights = tierWeights(await elusiveUnitsOnSale(work.tx));
  const opening = await drawOpening({ ...seed, weights, oddsVersion: ODDS_VERSION });
  const openingId = await insertOpening(work.tx, {
    userId,
    seedId: seed.id,
    nonce: seed.nonce,
    clientSeed: seed.clientSeed,
    oddsVersion: ODDS_VERSION,
    weights,
    ...opening,
    at: now,
  });
  await ledger.mintLoot(work, { userId, items: opening.lootSequence, openingId });
  work.emit('keyCount', 'update', { value: counters.keyCount }, audience.user(userId));
  work.emit('lootBoxCount', 'update', { value: counters.lootBoxCount }, audience.user(userId));
  return { ...opening, openingId, nonce: seed.nonce, ...counters };
}

/** The seed in use and the nonce this opening takes; a user's first opening starts their first seed. */
async function nextNonce(work: Work, userId: number) {
  // A rotation committed meanwhile ends the seed this statement would have updated: read again after it.
  for (let attempt = 0; attempt < 3; attempt++) {
    const taken = await takeNonce(work.tx, userId);
    if (taken) return taken;
    await ensureSeed(work.tx, userId);
  }
  throw new Error(`no seed in use for user ${userId}`);
}
