import { describe, expect, it } from 'vitest';
import { earlierScore, foldPurchase, formatTrending, purchaseScore, trendingScore } from './trending';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const min = (n: number) => T0 + n * 60_000;

describe('trendingScore', () => {
  it('counts a purchase at 1000 × amount the moment it is paid', () => {
    expect(trendingScore([{ amount: 100, paidOn: T0 }], null, T0)).toBe(100_000);
  });

  it('divides by minutes since payment plus one', () => {
    expect(purchaseScore(100, T0, min(9))).toBeCloseTo(10_000);
    expect(purchaseScore(100, new Date(T0).toISOString(), min(0.5))).toBeCloseTo(100_000 / 1.5);
  });

  it('sums every purchase', () => {
    const score = trendingScore(
      [
        { amount: 100, paidOn: T0 },
        { amount: 300, paidOn: min(2) },
      ],
      null,
      min(4),
    );
    expect(score).toBeCloseTo(100_000 / 5 + 300_000 / 3);
  });

  it('treats a payment dated a little in the future as paid now', () => {
    expect(purchaseScore(100, min(1), T0)).toBe(100_000);
  });
});

describe('folded earlier purchases', () => {
  it('decay exactly like the one purchase they hold', () => {
    const folded = foldPurchase(null, { amount: 500, paidOn: T0 }, min(10));
    for (const m of [10, 11, 60, 1440]) {
      expect(earlierScore(folded, min(m))).toBeCloseTo(purchaseScore(500, T0, min(m)), 6);
    }
  });

  it('stay within a fraction of a percent of the exact sum for several purchases', () => {
    const old = [
      { amount: 100, paidOn: T0 },
      { amount: 250, paidOn: min(30) },
      { amount: 1000, paidOn: min(90) },
    ];
    let folded = null;
    for (const p of old) folded = foldPurchase(folded, p, min(120));
    const exact = trendingScore(old, null, min(600));
    expect(Math.abs(earlierScore(folded, min(600)) - exact) / exact).toBeLessThan(0.05);
    expect(earlierScore(folded, min(120))).toBeCloseTo(trendingScore(old, null, min(120)), 6);
  });

  it('add nothing when empty', () => {
    expect(earlierScore(null, T0)).toBe(0);
    expect(earlierScore({ amount: 0, score: 0, at: T0 }, T0)).toBe(0);
  });
});

describe('formatTrending', () => {
  it('shows one decimal under 10, whole numbers under 1000, then K and M', () => {
    expect(formatTrending(0)).toBe('0.0');
    expect(formatTrending(7.25)).toBe('7.2');
    expect(formatTrending(9.99)).toBe('9.9');
    expect(formatTrending(10)).toBe('10');
    expect(formatTrending(999.9)).toBe('999');
    expect(formatTrending(1000)).toBe('1K');
    expect(formatTrending(1530)).toBe('1.5K');
    expect(formatTrending(12_345)).toBe('12K');
    expect(formatTrending(999_999)).toBe('999K');
    expect(formatTrending(2_500_000)).toBe('2.5M');
    expect(formatTrending(42_000_000)).toBe('42M');
  });
});
