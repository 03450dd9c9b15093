import { describe, expect, it } from 'vitest';
import { REVEAL_DELAY_MS, REVEAL_STEP_MS, revealOrder, revealedAfter, uncoveredSlots } from './reveal';

describe('the reveal order', () => {
  it('takes every item from the left end on LLLLL and from the right end on RRRRR', () => {
    expect(revealOrder('LLLLL')).toEqual([0, 1, 2, 3, 4]);
    expect(revealOrder('RRRRR')).toEqual([4, 3, 2, 1, 0]);
  });

  it('alternates ends as the open sequence says', () => {
    expect(revealOrder('LRLRL')).toEqual([0, 4, 1, 3, 2]);
    expect(revealOrder('RLLRR')).toEqual([4, 0, 1, 3, 2]);
    expect(revealOrder('LRRLR')).toEqual([0, 4, 3, 1, 2]);
  });

  it('uncovers every slot exactly once for each of the 32 open sequences', () => {
    for (let n = 0; n < 32; n++) {
      const seq = Array.from({ length: 5 }, (_, i) => ((n >> i) & 1 ? 'R' : 'L')).join('');
      expect([...revealOrder(seq)].sort()).toEqual([0, 1, 2, 3, 4]);
    }
  });

  it('still uncovers every slot when the sequence is short', () => {
    expect(revealOrder('R', 3)).toEqual([2, 0, 1]);
  });

  it('shows nothing for 2 s, then one more item every 500 ms, up to all five', () => {
    expect(revealedAfter(0, 5)).toBe(0);
    expect(revealedAfter(REVEAL_DELAY_MS - 1, 5)).toBe(0);
    expect(revealedAfter(REVEAL_DELAY_MS, 5)).toBe(1);
    expect(revealedAfter(REVEAL_DELAY_MS + REVEAL_STEP_MS - 1, 5)).toBe(1);
    expect(revealedAfter(REVEAL_DELAY_MS + REVEAL_STEP_MS, 5)).toBe(2);
    expect(revealedAfter(REVEAL_DELAY_MS + 4 * REVEAL_STEP_MS, 5)).toBe(5);
    expect(revealedAfter(60_000, 5)).toBe(5);
  });

  it('knows which slots are uncovered after some reveals', () => {
    expect([...uncoveredSlots('RLRLL', 5, 3)]).toEqual([4, 0, 3]);
    expect(uncoveredSlots('RLRLL', 5, 0).size).toBe(0);
  });
});
