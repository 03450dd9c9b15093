import type { FundMessage } from '../../../../../common/live';
import { trendingScore } from '../../../../../common/trending';
import type { Picture, WallSort } from '../../../../../common/api/pictures';

const time = (iso: string) => new Date(iso).getTime();

/** A picture's trending score at `now`, from the figures the server served (docs/product.md#funding). */
export const scoreAt = (p: Picture, now: number): number => trendingScore(p.purchases, p.earlierPurchases, now);

/**
 * The picture after a live fund message. A message already counted (the funder's own answer can arrive before or
 * after it) changes nothing: the same amount paid at the same moment is the same purchase.
 */
export function applyFund(p: Picture, m: FundMessage): Picture {
  const at = time(m.fundOn);
  if (p.purchases.some((x) => x.amount === m.fundAmount && time(x.paidOn) === at)) return p;
  return {
    ...p,
    totalAmount: p.totalAmount + m.fundAmount,
    purchaseCount: p.purchaseCount + 1,
    purchases: [...p.purchases, { amount: m.fundAmount, paidOn: m.fundOn }],
    lastAuthorPayment: m.authorFund ? m.fundOn : p.lastAuthorPayment,
  };
}

/** Orders a list the way the server ranks it: top by total then newest, trending by score, profile by last author payment. */
export function rank(list: readonly Picture[], sort: WallSort, now: number): Picture[] {
  const byNewest = (a: Picture, b: Picture) => time(b.createdOn) - time(a.createdOn) || b.id - a.id;
  const sorted = [...list];
  if (sort === 'top') sorted.sort((a, b) => b.totalAmount - a.totalAmount || byNewest(a, b));
  else if (sort === 'trending') {
    const scores = new Map(list.map((p) => [p.id, scoreAt(p, now)]));
    sorted.sort((a, b) => scores.get(b.id)! - scores.get(a.id)! || b.id - a.id);
  } else sorted.sort((a, b) => time(b.lastAuthorPayment) - time(a.lastAuthorPayment) || b.id - a.id);
  return sorted;
}

/**
 * Re-ranks the loaded part of a wall in place: the pictures are sorted again and poured back into batches of the
 * same sizes, so the offsets of the batches (and what is loaded next) stay right.
 */
export function rerankBatches<T extends { items: Picture[] }>(batches: readonly T[], sort: WallSort, now: number): T[] {
  const sorted = rank(
    batches.flatMap((b) => b.items),
    sort,
    now,
  );
  let i = 0;
  return batches.map((b) => {
    const items = sorted.slice(i, i + b.items.length);
    i += b.items.length;
    return { ...b, items };
  });
}

/** The price tag's width (common/shell.ts: the server's painted card draws it too). */
export { priceTagWidth } from '../../../../../common/shell';
