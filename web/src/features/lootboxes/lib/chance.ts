import { TOTAL_WEIGHT } from '../../../../../common/fairness';
import { TIERS, type Tier } from '../../../../../common/items';
import type { Odds } from '../../../../../common/api/lootboxes';

const twoDigits = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 2 });

/** A chance in percent, to two significant digits: '80%', '4.2%', '0.7%', '0.033%'. */
export const formatChance = (percent: number): string => `${twoDigits.format(percent)}%`;

/** docs/product.md#lootboxes: the elusive chance is shown as 1/(10 × (1 + market quantity)) percent. */
export const elusiveChancePercent = (unitsOnSale: number): number => 1 / (10 * (1 + Math.max(0, unitsOnSale)));

export interface TierChance {
  tier: Tier;
  /** Weight ÷ total, in percent: the bar's length. */
  percent: number;
  text: string;
}

/**
 * Each tier's own chance, weight ÷ total (docs/product.md#lootboxes). The elusive text follows docs/product.md#lootboxes and its
 * formula when the units on sale are known; it equals the elusive weight ÷ total up to the weight's rounding.
 */
export function tierChances(odds: Pick<Odds, 'tiers' | 'total'>, elusiveOnSale?: number): TierChance[] {
  const total = odds.total || TOTAL_WEIGHT;
  return TIERS.map((tier) => {
    const weight = odds.tiers.find((t) => t.rarity === tier)?.weight ?? 0;
    const percent = (weight * 100) / total;
    const shown = tier === 'ELUSIVE' && elusiveOnSale !== undefined ? elusiveChancePercent(elusiveOnSale) : percent;
    return { tier, percent, text: formatChance(shown) };
  });
}
