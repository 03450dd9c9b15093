/**
 * The trending score (docs/product.md#funding): the sum over a picture's purchases of 1000 × amount / (minutes since payment + 1).
 * The server ranks with it and the client keeps it current every second, both through this one file.
 *
 * A picture answer carries only its most recent purchases (RECENT_PURCHASES). Older ones are folded into
 * `earlier = {amount, score, at}`: their summed amount and their summed score at the moment `at`. The folded part
 * then decays as one purchase of that amount would whose contribution was `score` at `at`:
 *   earlier(now) = 1000·A / (1000·A / S + Δ)       with Δ the minutes from `at` to now.
 * That is exact for one folded purchase and very close for many (they are all older than the recent ones), and it
 * keeps every answer and every score computation bounded however many purchases a picture collects.
 */

/** How many of a picture's newest purchases are listed one by one; older ones are folded. */
export const RECENT_PURCHASES = 20;

export interface TrendingPurchase {
  amount: number;
  paidOn: string | number | Date;
}

export interface EarlierPurchases {
  /** Cents paid by the folded purchases. */
  amount: number;
  /** Their summed score at `at`. */
  score: number;
  at: string | number | Date;
}

const MS_PER_MINUTE = 60_000;
const time = (t: string | number | Date) => (t instanceof Date ? t.getTime() : new Date(t).getTime());

/** Minutes from `from` to `now`; never negative, so a clock a little ahead of the server's changes nothing. */
export function minutesSince(from: string | number | Date, now: number): number {
  return Math.max(0, (now - time(from)) / MS_PER_MINUTE);
}

/** One purchase's share of the score at `now`. */
export function purchaseScore(amount: number, paidOn: string | number | Date, now: number): number {
  return (1000 * amount) / (minutesSince(paidOn, now) + 1);
}

/** The folded purchases' share of the score at `now`. */
export function earlierScore(earlier: EarlierPurchases | null | undefined, now: number): number {
  if (!earlier || earlier.amount <= 0 || earlier.score <= 0) return 0;
  const weight = 1000 * earlier.amount;
  return weight / (weight / earlier.score + minutesSince(earlier.at, now));
}

/** Folds one more purchase into the earlier part, at the moment `now`. */
export function foldPurchase(
  earlier: EarlierPurchases | null | undefined,
  purchase: TrendingPurchase,
  now: number,
): EarlierPurchases {
  return {
    amount: (earlier?.amount ?? 0) + purchase.amount,
    score: earlierScore(earlier, now) + purchaseScore(purchase.amount, purchase.paidOn, now),
    at: new Date(now).toISOString(),
  };
}

/** A picture's trending score at `now` (milliseconds since the epoch). */
export function trendingScore(
  purchases: readonly TrendingPurchase[],
  earlier: EarlierPurchases | null | undefined,
  now: number,
): number {
  let score = earlierScore(earlier, now);
  for (const p of purchases) score += purchaseScore(p.amount, p.paidOn, now);
  return score;
}

/** The fire badge's compact figure: under 10 one decimal, under 1000 whole, then K and M (docs/product.md#funding). */
export function formatTrending(score: number): string {
  if (!Number.isFinite(score) || score < 0) return '0';
  if (score < 10) return (Math.floor(score * 10) / 10).toFixed(1);
  if (score < 1000) return String(Math.floor(score));
  if (score < 1_000_000) return `${compact(score / 1000)}K`;
  return `${compact(score / 1_000_000)}M`;
}

/** 1.2K, 12K, 123K: one decimal while it helps, rounded down so a score never shows more than it is. */
function compact(n: number): string {
  return n < 10 ? trim(Math.floor(n * 10) / 10, 1) : String(Math.floor(n));
}

const trim = (n: number, digits: number) => n.toFixed(digits).replace(/\.0+$/, '');
