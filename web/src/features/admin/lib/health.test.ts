import { describe, expect, it } from 'vitest';
import type { ConservationReport } from '../../../../../common/api/admin';
import { healthFigures } from './health';

const balanced: ConservationReport = {
  ok: true,
  postingsTotal: 0,
  unbalancedEntries: 0,
  negativeBalances: 0,
  driftedAccounts: 0,
  userMoney: 12_345,
  itemsMinted: 10,
  itemsInExistence: 10,
  unbalancedItemEntries: 0,
  driftedInventories: 0,
  escrowMismatches: 0,
  heldMismatches: 0,
  crossedBooks: 0,
  goodwillMismatches: 0,
};

describe('the health tab', () => {
  it('shows every figure of balanced books as ok', () => {
    const figures = healthFigures(balanced);
    expect(figures).toHaveLength(13);
    expect(figures.every((f) => f.ok)).toBe(true);
  });

  it('marks the figures that are off as failed', () => {
    const figures = healthFigures({ ...balanced, ok: false, postingsTotal: 5, itemsInExistence: 9 });
    expect(figures.filter((f) => !f.ok).map((f) => f.label)).toEqual([
      'Sum of all postings',
      'Items minted',
      'Items in existence',
    ]);
  });
});
