import type { Odds, Rotation } from '../../../../common/api/lootboxes';
import { CLIENT_SEED_PATTERN, ODDS_VERSION, TOTAL_WEIGHT, tierItems, tierWeights } from '../../../../common/fairness';
import { TIERS } from '../../../../common/items';
import type { AppContext } from '../../context';
import { fieldError } from '../../http/errors';
import { elusiveUnitsOnSale } from '../items/items.service';
import {
  countersOf,
  insertSeed,
  openingsOf,
  revealSeed,
  setClientSeed,
  type Counters,
  type OpeningRow,
  type SeedRow,
} from './lootboxes.repository';
import { ensureSeed, newServerSeed } from './seeds';

export const DEFAULT_OPENINGS_PAGE = 20;
export const MAX_OPENINGS_PAGE = 100;

/** The weights the next opening will use and the items each tier draws from, in draw order (public). */
export async function odds(ctx: AppContext): Promise<Odds> {
  const elusiveOnSale = await elusiveUnitsOnSale(ctx.db);
  const weights = tierWeights(elusiveOnSale);
  return {
    oddsVersion: ODDS_VERSION,
    total: TOTAL_WEIGHT,
    elusiveOnSale,
    tiers: TIERS.map((tier) => ({ rarity: tier, weight: weights[tier], items: tierItems(ODDS_VERSION, tier) })),
  };
}

/** The user's seed in use (started if they had none). */
export function fairness(ctx: AppContext, userId: number): Promise<SeedRow> {
  return ensureSeed(ctx.db, userId);
}

/** The user's own client seed; the nonce carries on (docs/product.md#fairness). */
export async function chooseClientSeed(ctx: AppContext, userId: number, clientSeed: string): Promise<SeedRow> {
  if (!CLIENT_SEED_PATTERN.test(clientSeed)) {
    throw fieldError('clientSeed', 'A client seed is 1 to 64 characters: letters, digits and symbols, no spaces.');
  }
  return ctx.transact(async ({ tx }) => {
    await ensureSeed(tx, userId);
    return (await setClientSeed(tx, userId, clientSeed))!;
  });
}

/** Reveals the seed in use and commits to a new one; the client seed stays, the nonce starts again at 0. */
export async function rotateSeed(ctx: AppContext, userId: number): Promise<Rotation> {
  return ctx.transact(async ({ tx }) => {
    await ensureSeed(tx, userId);
    const previous = (await revealSeed(tx, userId, ctx.now()))!;
    const next = await newServerSeed();
    await insertSeed(tx, { userId, ...next, clientSeed: previous.clientSeed });
    return {
      previousServerSeed: previous.serverSeed,
      previousServerSeedHash: previous.serverSeedHash,
      serverSeedHash: next.serverSeedHash,
      clientSeed: previous.clientSeed,
      nonce: 0,
    };
  });
}

export async function openings(
  ctx: AppContext,
  userId: number,
  q: { limit?: string; before?: string },
): Promise<OpeningRow[]> {
  const limit = Number(q.limit ?? DEFAULT_OPENINGS_PAGE);
  if (limit < 1 || limit > MAX_OPENINGS_PAGE) throw fieldError('limit', `The limit is 1 to ${MAX_OPENINGS_PAGE}.`);
  return openingsOf(ctx.db, userId, { limit, before: q.before ? Number(q.before) : undefined });
}

export async function counters(ctx: AppContext, userId: number): Promise<Counters | undefined> {
  return countersOf(ctx.db, userId);
}
