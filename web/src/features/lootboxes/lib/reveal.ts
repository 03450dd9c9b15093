/** The reveal of an opened box (docs/product.md#lootboxes): a pause, then one item at a time. */
export const REVEAL_DELAY_MS = 2_000;
export const REVEAL_STEP_MS = 500;

/**
 * The slots of a row in the order they are uncovered. The row shows the loot in draw order, covered; each letter of
 * `openSequence` uncovers the leftmost (L) or the rightmost (R) slot still covered.
 */
export function revealOrder(openSequence: string, count: number = openSequence.length): number[] {
  let left = 0;
  let right = count - 1;
  const order: number[] = [];
  for (let i = 0; i < count; i++) {
    // A missing or unknown letter counts as L, so every slot is still uncovered once.
    if (openSequence[i] === 'R') order.push(right--);
    else order.push(left++);
  }
  return order;
}

/** How many items are uncovered `elapsedMs` after the box's result arrived. */
export function revealedAfter(elapsedMs: number, count: number): number {
  if (elapsedMs < REVEAL_DELAY_MS) return 0;
  return Math.min(count, 1 + Math.floor((elapsedMs - REVEAL_DELAY_MS) / REVEAL_STEP_MS));
}

/** The slots uncovered once `revealed` items have been shown. */
export function uncoveredSlots(openSequence: string, count: number, revealed: number): Set<number> {
  return new Set(revealOrder(openSequence, count).slice(0, revealed));
}
