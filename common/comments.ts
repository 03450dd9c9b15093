import { purchaseScore } from './trending';

/*
 * The comments' rules both sides use (docs/product.md#comments): prices and the
 * order of a picture's comments. The server sorts its answer with `compareComments`; the web client re-sorts with it
 * when a live update changes a comment's reactions or pin.
 */

/** A comment or a reply costs 15¢, a pin 1¢; a reaction is 15¢ unless the user says otherwise (docs/product.md#comments). */
export const COMMENT_PRICE = 15;
export const PIN_PRICE = 1;
export const DEFAULT_REACTION_PRICE = 15;
/** A reaction's largest price: six digits of dollars, like every other amount typed in (docs/product.md#comments). */
export const MAX_REACTION_PRICE = 999_999 * 100;
/** Replies (and comments) are revealed ten at a time (docs/product.md#comments). */
export const REVEAL_STEP = 10;

export interface RankedReaction {
  price: number;
  reactedOn: string;
}

export interface RankedComment {
  id: number;
  commentedOn: string;
  /** When it was pinned; null when it is not. */
  pinnedOn: string | null;
  reactions: readonly RankedReaction[];
  commentResponses?: readonly { reactions: readonly RankedReaction[] }[];
}

/** The comment trending sum (docs/product.md#comments): 1000 × price / (minutes since reactedOn + 1) over its reactions and replies'. */
export function commentTrending(c: RankedComment, now: number): number {
  const own = (rs: readonly RankedReaction[]) => rs.reduce((s, r) => s + purchaseScore(r.price, r.reactedOn, now), 0);
  return own(c.reactions) + (c.commentResponses ?? []).reduce((s, r) => s + own(r.reactions), 0);
}

/**
 * The order of top-level comments (docs/product.md#comments): pinned first, the latest pin first; then the
 * trending sum with replies included, highest first; then newest; then the higher id (same instant).
 */
export function compareComments(a: RankedComment, b: RankedComment, now: number): number {
  if (a.pinnedOn || b.pinnedOn) {
    if (!a.pinnedOn) return 1;
    if (!b.pinnedOn) return -1;
    const byPin = Date.parse(b.pinnedOn) - Date.parse(a.pinnedOn);
    if (byPin !== 0) return byPin;
  }
  const byTrending = commentTrending(b, now) - commentTrending(a, now);
  if (byTrending !== 0) return byTrending;
  return Date.parse(b.commentedOn) - Date.parse(a.commentedOn) || b.id - a.id;
}

/** A picture's top-level comments in their order. */
export const sortComments = <C extends RankedComment>(comments: readonly C[], now: number): C[] =>
  [...comments].sort((a, b) => compareComments(a, b, now));

/** Replies read as a conversation: oldest first. */
export const compareReplies = (
  a: { id: number; commentedOn: string },
  b: { id: number; commentedOn: string },
): number => Date.parse(a.commentedOn) - Date.parse(b.commentedOn) || a.id - b.id;

/**
 * The two reactions a comment shows (firstReaction and secondReaction, docs/product.md#comments): the reaction types with the most money
 * behind them; on a tie, the type first used earlier.
 */
export function topReactions(
  reactions: readonly { reactionType: string; price: number; reactedOn: string }[],
): [string | null, string | null] {
  const totals = new Map<string, { sum: number; first: number }>();
  for (const r of reactions) {
    const t = totals.get(r.reactionType) ?? { sum: 0, first: Infinity };
    totals.set(r.reactionType, { sum: t.sum + r.price, first: Math.min(t.first, Date.parse(r.reactedOn)) });
  }
  const ranked = [...totals].sort((a, b) => b[1].sum - a[1].sum || a[1].first - b[1].first).map(([type]) => type);
  return [ranked[0] ?? null, ranked[1] ?? null];
}
