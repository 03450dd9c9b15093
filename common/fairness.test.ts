import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CLIENT_SEED_PATTERN,
  ODDS_VERSION,
  TIER_SIZES,
  TOTAL_WEIGHT,
  drawOpening,
  elusiveWeight,
  intsOf,
  openingFromInts,
  seedHash,
  tierAt,
  tierWeights,
  uniform,
  type TierWeights,
} from './fairness';
import { ITEMS, ITEMS_BY_TIER, TIERS } from './items';

/** The seed 00 01 02 … 1f. */
const SEED = Array.from({ length: 32 }, (_, i) => i.toString(16).padStart(2, '0')).join('');
const AT_ZERO = tierWeights(0);
const letters = (s: string) => s.split('').map((l) => `COMMON_LETTER_${l}`);

describe('the catalogue', () => {
  it('has 26 letters and at least 8 emojis in every other tier, each code once', () => {
    expect(ITEMS_BY_TIER.LETTER.map((i) => i.emoji).join('')).toBe('ABCDEFGHIJKLMNOPQRSTUVWXYZ');
    for (const tier of TIERS.slice(1)) expect(ITEMS_BY_TIER[tier].length).toBeGreaterThanOrEqual(8);
    expect(new Set(ITEMS.map((i) => i.itemType)).size).toBe(ITEMS.length);
    expect(new Set(ITEMS.map((i) => i.emoji)).size).toBe(ITEMS.length);
    for (const item of ITEMS)
      expect(item.itemType).toMatch(/^(COMMON_LETTER_[A-Z]|(UNCOMMON|RARE|EPIC|ELUSIVE)_EMOJI_[A-Z_]+)$/);
  });

  it('matches the current odds version: adding an item to a tier needs a new version', () => {
    for (const tier of TIERS) expect(ITEMS_BY_TIER[tier].length, tier).toBe(TIER_SIZES[ODDS_VERSION]![tier]);
  });
});

describe('weights', () => {
  it('follow docs/product.md#fairness, the elusive share falling with the units on sale', () => {
    expect(AT_ZERO).toEqual({
      LETTER: 80_000_000,
      UNCOMMON: 15_000_000,
      RARE: 4_200_000,
      EPIC: 700_000,
      ELUSIVE: 100_000,
    });
    expect(elusiveWeight(1)).toBe(50_000);
    expect(elusiveWeight(2)).toBe(33_333);
    const w = tierWeights(2);
    expect(Object.values(w).reduce((a, b) => a + b, 0)).toBe(TOTAL_WEIGHT);
  });
});

describe('uniform', () => {
  it('draws again on an int at or above the largest multiple of n, consuming it', () => {
    const stream = [0xffffffff, 5, 7];
    const next = () => stream.shift()!;
    expect(uniform(3, next)).toBe(2); // 2^32 - 1 is rejected for n = 3, then 5 mod 3
    expect(stream).toEqual([7]);
    expect(uniform(2, () => 0xffffffff)).toBe(1); // n = 2 divides 2^32: nothing is rejected
  });

  it('finds the tier as the first one whose running sum passes the int', () => {
    expect(tierAt(0, AT_ZERO)).toBe('LETTER');
    expect(tierAt(79_999_999, AT_ZERO)).toBe('LETTER');
    expect(tierAt(80_000_000, AT_ZERO)).toBe('UNCOMMON');
    expect(tierAt(99_899_999, AT_ZERO)).toBe('EPIC');
    expect(tierAt(99_900_000, AT_ZERO)).toBe('ELUSIVE');
    expect(tierAt(99_999_999, AT_ZERO)).toBe('ELUSIVE');
  });

  it('reads 8 big-endian ints per block and says when it runs out', () => {
    const block = new Uint8Array(32).map((_, i) => i);
    const next = intsOf([block]);
    expect(next()).toBe(0x00010203);
    for (let i = 0; i < 6; i++) next();
    expect(next()).toBe(0x1c1d1e1f);
    expect(() => next()).toThrow();
  });
});

describe('drawOpening: fixed vectors (seed 00…1f, weights with nothing on sale)', () => {
  const draw = (clientSeed: string, nonce: number, weights: TierWeights = AT_ZERO) =>
    drawOpening({ serverSeed: SEED, clientSeed, nonce, weights, oddsVersion: 1 });

  it('gives the same five items and reveal order as an independent implementation', async () => {
    expect(await draw('client-seed', 0)).toEqual({
      lootSequence: ['COMMON_LETTER_X', 'UNCOMMON_EMOJI_LAUGHING', ...letters('CRD')],
      openSequence: 'RRLRR',
      lootFound: false,
    });
    expect(await draw('client-seed', 1)).toEqual({
      lootSequence: [...letters('ZBS'), 'UNCOMMON_EMOJI_HEART', 'COMMON_LETTER_D'],
      openSequence: 'RLRRR',
      lootFound: false,
    });
  });

  it('changes with the client seed', async () => {
    expect(await draw('another seed!', 0)).toEqual({
      lootSequence: letters('VHSWS'),
      openSequence: 'RLLLR',
      lootFound: false,
    });
  });

  it('reports a find of rare or better', async () => {
    expect(await draw('client-seed', 7, { LETTER: 0, UNCOMMON: 0, RARE: 1, EPIC: 1, ELUSIVE: 1 })).toEqual({
      lootSequence: [
        'RARE_EMOJI_GHOST',
        'ELUSIVE_EMOJI_FOUR_LEAF_CLOVER',
        'ELUSIVE_EMOJI_GENIE',
        'EPIC_EMOJI_SHOOTING_STAR',
        'RARE_EMOJI_RAINBOW',
      ],
      openSequence: 'LRRRL',
      lootFound: true,
    });
  });

  it('uses more HMAC rounds when rejections use up the first two blocks', async () => {
    // A block function whose first round is all rejections for every n: the draw must carry on into round 2.
    const rounds: string[] = [];
    const hmac = (message: string) => {
      rounds.push(message);
      const round = Number(message.split(':').pop());
      return round === 0
        ? new Uint8Array(32).fill(0xff)
        : createHmac('sha256', Buffer.from(SEED, 'hex')).update(message).digest();
    };
    const opening = await drawOpening(
      { serverSeed: SEED, clientSeed: 'c', nonce: 3, weights: AT_ZERO, oddsVersion: 1 },
      hmac,
    );
    expect(opening.lootSequence).toHaveLength(5);
    expect(rounds).toEqual(['c:3:0', 'c:3:1', 'c:3:2']);
  });

  it('commits to the seed with its SHA-256', async () => {
    expect(await seedHash('00'.repeat(32))).toBe('66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925');
  });
});

describe('the draw, statistically', () => {
  it('lands 1,000,000 tier draws within 4 standard deviations of every weight', () => {
    // The real stream (HMAC blocks of a fixed seed), computed synchronously for speed.
    const key = Buffer.from(SEED, 'hex');
    let round = 0;
    let block = new Uint8Array(0);
    let k = 8;
    const next = () => {
      if (k === 8) {
        block = createHmac('sha256', key).update(`stats:0:${round++}`).digest();
        k = 0;
      }
      const v =
        ((block[4 * k]! << 24) | (block[4 * k + 1]! << 16) | (block[4 * k + 2]! << 8) | block[4 * k + 3]!) >>> 0;
      k++;
      return v;
    };
    const counts = Object.fromEntries(TIERS.map((t) => [t, 0])) as Record<string, number>;
    const N = 1_000_000;
    for (let i = 0; i < N; i++) counts[tierAt(uniform(TOTAL_WEIGHT, next), AT_ZERO)]!++;
    for (const tier of TIERS) {
      const p = AT_ZERO[tier] / TOTAL_WEIGHT;
      const sd = Math.sqrt(N * p * (1 - p));
      expect(Math.abs(counts[tier]! - N * p), `${tier}: ${counts[tier]} vs ${N * p}`).toBeLessThan(4 * sd);
    }
  });

  it('picks items uniformly within a tier', () => {
    let x = 12345;
    const next = () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0);
    const hits = new Array(26).fill(0);
    for (let i = 0; i < 52_000; i++) {
      const opening = openingFromInts(next, { LETTER: 1, UNCOMMON: 0, RARE: 0, EPIC: 0, ELUSIVE: 0 }, 1);
      hits[opening.lootSequence[0]!.charCodeAt(14) - 65]++;
    }
    const total = hits.reduce((a, b) => a + b, 0);
    for (const h of hits) expect(Math.abs(h - total / 26)).toBeLessThan(4 * Math.sqrt((total / 26) * (25 / 26)));
  });
});

describe('client seeds', () => {
  it('are 1 to 64 printable ASCII characters, taken as typed', () => {
    for (const ok of ['a', '~'.repeat(64), 'My-seed!#42']) expect(CLIENT_SEED_PATTERN.test(ok), ok).toBe(true);
    for (const bad of ['', 'x'.repeat(65), 'has space', 'tab\t', 'émoji', 'new\nline']) {
      expect(CLIENT_SEED_PATTERN.test(bad), bad).toBe(false);
    }
  });
});
