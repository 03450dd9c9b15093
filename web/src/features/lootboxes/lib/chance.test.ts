import { describe, expect, it } from 'vitest';
import { TOTAL_WEIGHT, tierWeights } from '../../../../../common/fairness';
import { TIERS } from '../../../../../common/items';
import { elusiveChancePercent, formatChance, tierChances } from './chance';

const oddsFor = (onSale: number) => {
  const weights = tierWeights(onSale);
  return { total: TOTAL_WEIGHT, tiers: TIERS.map((rarity) => ({ rarity, weight: weights[rarity], items: [] })) };
};

describe('the chances shown on the rarity bars', () => {
  it('are each tier’s own weight ÷ total with nothing on sale: 80%, 15%, 4.2%, 0.7% and 0.1%', () => {
    expect(tierChances(oddsFor(0), 0).map((c) => c.text)).toEqual(['80%', '15%', '4.2%', '0.7%', '0.1%']);
    expect(tierChances(oddsFor(0), 0).map((c) => c.percent)).toEqual([80, 15, 4.2, 0.7, 0.1]);
  });

  it('show the elusive chance as 1/(10 × (1 + units on sale)) percent', () => {
    expect(elusiveChancePercent(0)).toBe(0.1);
    expect(elusiveChancePercent(1)).toBe(0.05);
    expect(elusiveChancePercent(3)).toBe(0.025);
    expect(tierChances(oddsFor(2), 2).at(-1)!.text).toBe('0.033%');
    expect(tierChances(oddsFor(9), 9).at(-1)!.text).toBe('0.01%');
    expect(tierChances(oddsFor(999), 999).at(-1)!.text).toBe('0.0001%');
  });

  it('give the epic tier what the elusive one loses, so the bars still add up to 100%', () => {
    const chances = tierChances(oddsFor(3), 3);
    expect(chances[3]!.text).toBe('0.78%');
    expect(chances.reduce((sum, c) => sum + c.percent, 0)).toBeCloseTo(100, 10);
  });

  it('fall back to the elusive weight ÷ total while the units on sale are unknown', () => {
    expect(tierChances(oddsFor(0)).at(-1)!.text).toBe('0.1%');
  });

  it('are written with two significant digits at most', () => {
    expect(formatChance(80)).toBe('80%');
    expect(formatChance(4.2)).toBe('4.2%');
    expect(formatChance(0.76666)).toBe('0.77%');
  });
});
