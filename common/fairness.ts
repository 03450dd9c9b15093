import { ITEMS_BY_TIER, TIERS, isLootFind, itemOf, type Tier } from './items';

/**
 * Provably fair lootboxes (docs/product.md#fairness). The server commits to a secret seed by showing its SHA-256 before any
 * opening; each opening draws from HMAC-SHA256(seed, `{clientSeed}:{nonce}:{round}`); rotating the seed reveals it,
 * and anyone can recompute every opening made with it. The browser verifies with this code (Web Crypto); the server's
 * openings are drawn by the database's lootbox_draw (migration 0020), which server/src/modules/lootboxes/draw.test.ts
 * holds to drawOpening here.
 */

/** Tier weights out of TOTAL_WEIGHT, keyed by tier name (an opening's `weights`). */
export type TierWeights = Record<Tier, number>;

export const TOTAL_WEIGHT = 100_000_000;
export const ITEMS_PER_BOX = 5;

/** The catalogue version an opening was drawn with: how many items each tier had (items are only appended). */
export const ODDS_VERSION = 1;
export const TIER_SIZES: Record<number, Record<Tier, number>> = {
  1: { LETTER: 26, UNCOMMON: 10, RARE: 8, EPIC: 8, ELUSIVE: 8 },
};

/** The elusive weight falls as more elusive items are on sale: floor(100000 / (1 + q)). */
export const elusiveWeight = (unitsOnSale: number) => Math.floor(100_000 / (1 + Math.max(0, unitsOnSale)));

export function tierWeights(elusiveUnitsOnSale: number): TierWeights {
  const e = elusiveWeight(elusiveUnitsOnSale);
  return { LETTER: 80_000_000, UNCOMMON: 15_000_000, RARE: 4_200_000, EPIC: 800_000 - e, ELUSIVE: e };
}

/** Item codes of each tier as they were in `version`, in draw order. */
export function tierItems(version: number, tier: Tier): string[] {
  const sizes = TIER_SIZES[version];
  if (!sizes) throw new Error(`unknown odds version ${version}`);
  return ITEMS_BY_TIER[tier].slice(0, sizes[tier]).map((i) => i.itemType);
}

export interface Opening {
  /** The item codes found, in draw order. */
  lootSequence: string[];
  /** L or R per item: the end of the row each one is revealed from. */
  openSequence: string;
  /** True when a rare or better item is among them. */
  lootFound: boolean;
}

/** The ints ran out before the draw finished: more HMAC blocks are needed (rare: only after rejections). */
export class NeedMoreInts extends Error {}

const TWO_32 = 2 ** 32;

/** An unbiased integer in [0, n): an int at or above the largest multiple of n below 2^32 is drawn again. */
export function uniform(n: number, next: () => number): number {
  if (!Number.isInteger(n) || n < 1 || n > TWO_32) throw new Error(`bad range ${n}`);
  const limit = TWO_32 - (TWO_32 % n);
  for (;;) {
    const u = next();
    if (u < limit) return u % n;
  }
}

/** The tier an int in [0, TOTAL_WEIGHT) falls in: the first i with u < w0 + … + wi. */
export function tierAt(u: number, weights: TierWeights): Tier {
  let upTo = 0;
  for (const tier of TIERS) {
    upTo += weights[tier];
    if (u < upTo) return tier;
  }
  throw new Error(`weights sum to ${upTo}, below ${u + 1}`);
}

/**
 * The opening a stream of ints gives: tier₁, item₁, …, tier₅, item₅, then side₁ … side₅, each from `uniform`.
 * Pure: the same ints, weights and version always give the same opening.
 */
export function openingFromInts(next: () => number, weights: TierWeights, version: number): Opening {
  const total = TIERS.reduce((sum, t) => sum + weights[t], 0);
  const lootSequence: string[] = [];
  for (let i = 0; i < ITEMS_PER_BOX; i++) {
    const tier = tierAt(uniform(total, next), weights);
    const items = tierItems(version, tier);
    lootSequence.push(items[uniform(items.length, next)]!);
  }
  let openSequence = '';
  for (let i = 0; i < ITEMS_PER_BOX; i++) openSequence += uniform(2, next) === 0 ? 'L' : 'R';
  return { lootSequence, openSequence, lootFound: lootSequence.some((code) => isLootFind(itemOf(code)!)) };
}

/** Ints from HMAC blocks: 8 big-endian unsigned 32-bit integers per 32-byte block, used in order. */
export function intsOf(blocks: readonly Uint8Array[]): () => number {
  let i = 0;
  return () => {
    const block = blocks[i >> 3];
    if (!block) throw new NeedMoreInts();
    const k = (i++ & 7) * 4;
    return ((block[k]! << 24) | (block[k + 1]! << 16) | (block[k + 2]! << 8) | block[k + 3]!) >>> 0;
  };
}

/** The message of round `round` of an opening. */
export const roundMessage = (clientSeed: string, nonce: number, round: number) => `${clientSeed}:${nonce}:${round}`;

/** HMAC-SHA256 of one round's message under the seed: Web Crypto by default, any implementation in tests. */
export type HmacBlock = (message: string) => Promise<Uint8Array> | Uint8Array;

export function hexToBytes(hex: string): Uint8Array {
  if (!/^(?:[0-9a-f]{2})+$/.test(hex)) throw new Error('not lowercase hex');
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

export const bytesToHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** HMAC-SHA256 keyed with the server seed's bytes, through Web Crypto (Node 20 and every browser have it). */
export async function webCryptoHmac(serverSeedHex: string): Promise<HmacBlock> {
  const key = await crypto.subtle.importKey(
    'raw',
    hexToBytes(serverSeedHex) as BufferSource,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const encoder = new TextEncoder();
  return async (message) => new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(message)));
}

/** The server seed's commitment: SHA-256 of its 32 bytes, in lowercase hex. */
export async function seedHash(serverSeedHex: string): Promise<string> {
  return bytesToHex(new Uint8Array(await crypto.subtle.digest('SHA-256', hexToBytes(serverSeedHex) as BufferSource)));
}

export interface DrawInput {
  serverSeed: string;
  clientSeed: string;
  nonce: number;
  weights: TierWeights;
  oddsVersion: number;
}

/** Draws (or re-draws, to verify) one opening: as many HMAC rounds as the draw consumes. */
export async function drawOpening(input: DrawInput, hmac?: HmacBlock): Promise<Opening> {
  const block = hmac ?? (await webCryptoHmac(input.serverSeed));
  // Two blocks (16 ints) cover the 15 draws unless some were rejected, which is rare.
  const blocks: Uint8Array[] = [];
  for (;;) {
    while (blocks.length < 2) blocks.push(await block(roundMessage(input.clientSeed, input.nonce, blocks.length)));
    try {
      return openingFromInts(intsOf(blocks), input.weights, input.oddsVersion);
    } catch (err) {
      if (!(err instanceof NeedMoreInts)) throw err;
      blocks.push(await block(roundMessage(input.clientSeed, input.nonce, blocks.length)));
    }
  }
}

/** A client seed: 1 to 64 printable ASCII characters (0x21–0x7E), taken as typed. */
export const CLIENT_SEED_PATTERN = /^[\x21-\x7e]{1,64}$/;
