/**
 * The market's rules, pure, for the server (the authority) and the browser (docs/product.md#market). Prices are integer cents, quantities whole units.
 */

/** An offer's quantity: 1 to 999 units. */
export const MAX_OFFER_QUANTITY = 999;
/** An offer's price: 1¢ to $999,999 (six digits of dollars). */
export const MIN_PRICE = 1;
export const MAX_PRICE = 99_999_900;
/** The sell form's price when nobody sells (docs/product.md#market). */
export const DEFAULT_SELL_PRICE = 100;
/** Unlocking every item's graphs costs $1, once (docs/product.md#graphs). */
export const GRAPH_UNLOCK_PRICE = 100;
/** How many of the latest trades the last-trades graph shows, and how many months the monthly one covers. */
export const LAST_TRADES = 10;
export const MONTHS = 12;

export type Side = 'BUY' | 'SELL';

/** A resting offer as the matching sees it. */
export interface RestingOffer {
  offerId: number;
  userId: number;
  price: number;
  quantity: number;
}

/** One fill: `quantity` units of the resting offer at its price. */
export interface Fill {
  offerId: number;
  makerId: number;
  price: number;
  quantity: number;
  /** The market's cut of the seller's proceeds. */
  fee: number;
}

/** floor(price × quantity × bps ÷ 10000), taken from the seller's proceeds (docs/product.md#market). */
export const feeOf = (price: number, quantity: number, feeBps: number): number =>
  Math.floor((price * quantity * feeBps) / 10_000);

/** Whether a resting offer on the other side crosses an order at `limit`. */
export const crosses = (side: Side, limit: number, restingPrice: number): boolean =>
  side === 'BUY' ? restingPrice <= limit : restingPrice >= limit;

/**
 * Matches an order against the other side of the book: `book` must be best price first, then oldest (the order the
 * database reads it in). The taker's own offers are skipped; each fill is at the resting offer's price; the order
 * takes what it can and the rest of it rests. Pure: the caller applies the fills in one transaction.
 */
export function matchOrder(
  order: { side: Side; takerId: number; price: number; quantity: number },
  book: readonly RestingOffer[],
  feeBps: number,
): { fills: Fill[]; rest: number } {
  const fills: Fill[] = [];
  let rest = order.quantity;
  for (const offer of book) {
    if (rest === 0 || !crosses(order.side, order.price, offer.price)) break;
    if (offer.userId === order.takerId) continue;
    const quantity = Math.min(rest, offer.quantity);
    fills.push({
      offerId: offer.offerId,
      makerId: offer.userId,
      price: offer.price,
      quantity,
      fee: feeOf(offer.price, quantity, feeBps),
    });
    rest -= quantity;
  }
  return { fills, rest };
}

/** An item's market at one moment: units on sale and the best prices (null when nobody offers). */
export interface MarketFigures {
  quantity: number;
  bestSo: number | null;
  bestBo: number | null;
}

/** A user's standing offer, as the item details and the live update carry it. */
export interface StandingOffer {
  price: number;
  quantity: number;
  since: string;
}

/** One user's side of an item: units owned (those their sell offer holds included) and their two offers. */
export interface UserPosition {
  quantity: number;
  sellOffer: StandingOffer | null;
  buyOffer: StandingOffer | null;
}

const sameOffer = (a: StandingOffer | null, b: StandingOffer | null) =>
  a === b || (a !== null && b !== null && a.price === b.price && a.quantity === b.quantity && a.since === b.since);

/** The market update message (docs/product.md#market): each field with a flag saying whether this event changed it. */
export interface MarketItemMessage {
  itemType: string;
  marketQuantity: number;
  marketQuantityDelta: boolean;
  bestSo: number | null;
  bestSoDelta: boolean;
  bestBo: number | null;
  bestBoDelta: boolean;
  /** The user fields travel only to that user's own sockets. */
  userQuantity?: number;
  userQuantityDelta?: boolean;
  userSellOffer?: StandingOffer | null;
  userSellOfferDelta?: boolean;
  userBuyOffer?: StandingOffer | null;
  userBuyOfferDelta?: boolean;
}

/** The public half of an update: the item's market before and after a change. */
export function marketItemMessage(itemType: string, before: MarketFigures, after: MarketFigures): MarketItemMessage {
  return {
    itemType,
    marketQuantity: after.quantity,
    marketQuantityDelta: after.quantity !== before.quantity,
    bestSo: after.bestSo,
    bestSoDelta: after.bestSo !== before.bestSo,
    bestBo: after.bestBo,
    bestBoDelta: after.bestBo !== before.bestBo,
  };
}

/** The message for one user's own sockets: the public half plus their position before and after. */
export function userMarketItemMessage(
  common: MarketItemMessage,
  before: UserPosition,
  after: UserPosition,
): MarketItemMessage {
  return {
    ...common,
    userQuantity: after.quantity,
    userQuantityDelta: after.quantity !== before.quantity,
    userSellOffer: after.sellOffer,
    userSellOfferDelta: !sameOffer(before.sellOffer, after.sellOffer),
    userBuyOffer: after.buyOffer,
    userBuyOfferDelta: !sameOffer(before.buyOffer, after.buyOffer),
  };
}

/** One month of trades of an item, as the twelve-month graph draws it (docs/product.md#graphs). */
export interface MonthOfTrades {
  label: string;
  averagePrice: number | null;
  lowestPrice: number | null;
  highestPrice: number | null;
  volume: number;
}

/** 'YYYY-MM' of a moment, in UTC. */
export const monthLabel = (at: Date): string => at.toISOString().slice(0, 7);

/** The first moment of the month `back` months before the month of `now` (UTC). */
export const monthStart = (now: Date, back: number): Date =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));

/**
 * The last twelve months, oldest first, the current month last: months without trades have volume 0 and no prices
 * (docs/product.md#market).
 */
export function twelveMonths(now: Date, traded: readonly MonthOfTrades[]): MonthOfTrades[] {
  const byLabel = new Map(traded.map((m) => [m.label, m]));
  return Array.from({ length: MONTHS }, (_, i) => {
    const label = monthLabel(monthStart(now, MONTHS - 1 - i));
    return byLabel.get(label) ?? { label, averagePrice: null, lowestPrice: null, highestPrice: null, volume: 0 };
  });
}
