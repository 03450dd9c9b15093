import { itemOf } from '../../../../common/items';
import {
  GRAPH_UNLOCK_PRICE,
  marketItemMessage,
  userMarketItemMessage,
  type Fill,
  type MarketFigures,
  type Side,
  type StandingOffer,
} from '../../../../common/market';
import type { Events } from '../../db/one-call';
import type { OneCaller } from '../../db/one-call';
import { audience, type Work } from '../../db/unit-of-work';
import { conflict, fieldError, notFound } from '../../http/errors';
import { asMember, suspendedRefusal } from '../../http/membership';
import * as ledger from '../../ledger/commands';
import { account } from '../../ledger/ledger';
import {
  marketOrder,
  marketOrderCall,
  type MarketOrder,
  type MarketOutcome,
  type MarketPosition,
  type MarketRefusal,
} from '../../ledger/market';
import { isoTime } from '../../../../common/time';
import { PUSH_TTL_SECONDS } from '../push/push.service';
import * as market from './market.repository';

/*
 * Every market order is one short transaction (docs/product.md#money) and one call of the database's `market_order`
 * (migrations 0010 and 0021): it takes its item's book, reads the crossing offers, matches them (the rules of
 * common/market.ts), settles money and units in one ledger entry, updates the book, records the trades and the
 * notification events and queues the makers' pushes, all committed or none. This side checks the request, turns a
 * refusal into its error and raises the live updates.
 *
 * Where an order runs (`Place`): alone, as a transaction of its own sent in one round trip (`OneCaller`: BEGIN, the
 * call and COMMIT together, db/one-call.ts; a route without an Idempotency-Key, the benchmark), or inside a caller's
 * unit of work (`Work`: a keyed route's, whose transaction also holds the key; a suspension's cancels).
 */

/** What an order did: its fills, the item's market after it and the taker's position; the route presents it. */
export interface Ordered {
  itemType: string;
  fills: Fill[];
  market: MarketFigures;
  position: MarketPosition;
  /** The taker's available balance once the order is done, read in its transaction (the paid answer's `balance`). */
  balance: number;
}

/** Where an order runs: alone in one round trip (a OneCaller: the app context), or in a caller's unit of work. */
export type Place = Work | OneCaller;
const inWork = (p: Place): p is Work => 'tx' in p;

export const TEXT = {
  unknownItem: 'Unknown item.',
  price: 'Enter a price of at least 1¢.',
  quantity: 'Enter a quantity of at least 1.',
  ownsFewer: (owned: number) => (owned === 0 ? 'You do not own this item.' : `You own only ${owned}.`),
  allOffered: 'Every unit you own is already offered for sale: lower your sell offer first.',
  nobodySells: 'Nobody else is selling this item.',
  priceMoved: 'The price changed: the best offer now asks more.',
  offerGone: 'That offer is gone.',
  offerMoved: "That offer's price changed.",
} as const;

export interface OrderContext {
  now: Date;
  feeBps: number;
}

function checkItem(itemType: string): void {
  if (!itemOf(itemType)) throw fieldError('itemType', TEXT.unknownItem);
}

/** `price: 0, quantity: 0` cancels; any other 0 is a mistake in the field that has it. */
function isCancel(o: { price: number; quantity: number }): boolean {
  if (o.price === 0 && o.quantity === 0) return true;
  if (o.price === 0) throw fieldError('price', TEXT.price);
  if (o.quantity === 0) throw fieldError('quantity', TEXT.quantity);
  return false;
}

/** POST /api/market/generic-sell-offer: sells what crosses at once, offers the rest; replaces the old sell offer. */
export const placeSellOffer = (at: Place, c: OrderContext, o: OfferOrder) => placeOffer(at, c, 'SELL', o);

/** POST /api/market/generic-buy-offer: buys what crosses at once, escrows the rest; replaces the old buy offer. */
export const placeBuyOffer = (at: Place, c: OrderContext, o: OfferOrder) => placeOffer(at, c, 'BUY', o);

type OfferOrder = { userId: number; itemType: string; price: number; quantity: number };

function placeOffer(at: Place, c: OrderContext, side: Side, o: OfferOrder): Promise<Ordered> {
  checkItem(o.itemType);
  const cancel = isCancel(o);
  return order(at, c, {
    kind: 'offer',
    itemType: o.itemType,
    side,
    takerId: o.userId,
    price: cancel ? 0 : o.price,
    quantity: cancel ? 0 : o.quantity,
    counterpartyId: null,
  });
}

/**
 * Cancels every standing offer of a user, each as the user's own cancel would (docs/product.md#moderation: a
 * suspension ends them): a buy offer's escrow goes back to the balance, a sell offer's units are no longer held.
 * Answers how many offers it cancelled.
 */
export async function cancelAllOffers(work: Work, c: OrderContext, userId: number): Promise<number> {
  const standing = await market.offersOfUser(work.tx, userId);
  standing.sort((a, b) => a.item_type.localeCompare(b.item_type) || a.side.localeCompare(b.side));
  for (const o of standing) {
    await placeOffer(work, c, o.side, { userId, itemType: o.item_type, price: 0, quantity: 0 });
  }
  return standing.length;
}

/** POST /api/market/buy: one unit from the best other seller, if it asks no more than `requestedPrice`. */
export function marketBuy(
  at: Place,
  c: OrderContext,
  o: { userId: number; itemType: string; requestedPrice: number },
): Promise<Ordered> {
  checkItem(o.itemType);
  return order(at, c, {
    kind: 'market',
    itemType: o.itemType,
    side: 'BUY',
    takerId: o.userId,
    price: o.requestedPrice,
    quantity: 1,
    counterpartyId: null,
  });
}

/** buy-from-user and sell-to-user act on another user's offer, never one's own: 400 on userId (validation). */
function refuseOwnOffer(userId: number, counterpartyId: number): void {
  if (counterpartyId === userId) throw fieldError('userId', 'That is your own offer.');
}

/** POST /api/market/buy-from-user and sell-to-user: one unit of that user's offer at the price the caller saw. */
export function tradeWithUser(
  at: Place,
  c: OrderContext,
  o: { userId: number; itemType: string; side: Side; counterpartyId: number; price: number },
): Promise<Ordered> {
  checkItem(o.itemType);
  refuseOwnOffer(o.userId, o.counterpartyId);
  return order(at, c, { ...o, kind: 'take', takerId: o.userId, quantity: 1 });
}

/** The error a refused order answers with. */
function refusal(r: MarketRefusal, kind: MarketOrder['kind']): Error {
  switch (r.refused) {
    case 'ownsFewer':
      // An offer asks for too many; a take of one unit, from a user who has none.
      return fieldError(kind === 'offer' ? 'quantity' : 'itemType', TEXT.ownsFewer(r.owned));
    case 'allOffered':
      return fieldError('itemType', TEXT.allOffered);
    case 'nobodySells':
      return notFound(TEXT.nobodySells);
    case 'priceMoved':
      return conflict({ message: TEXT.priceMoved, bestSo: r.bestSo });
    case 'offerGone':
      return conflict({ message: TEXT.offerGone, price: null });
    case 'offerMoved':
      return conflict({ message: TEXT.offerMoved, price: r.price });
    case 'suspended':
      return suspendedRefusal(r);
  }
}

/**
 * One order in one call of the database (`marketOrder`, or `marketOrderCall` as a transaction of its own), then what
 * it tells once committed: the makers it told hear of a new notification (the function recorded the events and
 * queued their pushes), the item's live update goes to everyone and each user's own to their sockets.
 */
function order(at: Place, c: OrderContext, o: Omit<MarketOrder, 'feeBps' | 'at' | 'pushTtlSeconds'>): Promise<Ordered> {
  const full: MarketOrder = { ...o, feeBps: c.feeBps, at: c.now, pushTtlSeconds: PUSH_TTL_SECONDS };
  // Without a unit of work the taker's call is one round trip: it waits for a suspension being written, and is
  // refused once it is (http/membership.ts asMember).
  if (!inWork(at))
    return marketOrderCall(
      at,
      full,
      (r, events) => told(r, events, o, c.now),
      (call) => asMember(o.takerId, c.now, call),
    );
  return marketOrder(at, full).then((r) => told(r, at, o, c.now));
}

/** What a committed order tells, and what it did; a refusal throws its error. */
function told(
  r: MarketOutcome | MarketRefusal,
  events: Events,
  o: Omit<MarketOrder, 'feeBps' | 'at' | 'pushTtlSeconds'>,
  now: Date,
): Ordered {
  if ('refused' in r) throw refusal(r, o.kind);
  // The maker hears that their resting offer traded (a sell offer sold, a buy offer bought), unless they blocked
  // the taker, as notifications.service.ts announceEvents tells of an event.
  const topic = o.side === 'BUY' ? ('ITEM_SOLD' as const) : ('ITEM_BOUGHT' as const);
  for (const userId of r.told) events.emit('notification', 'newNotification', { topic }, audience.user(userId));
  const before = new Map(r.positions.map((p) => [p.userId, p]));
  const after = positionsAfter(
    {
      side: o.side,
      takerId: o.takerId,
      fills: r.fills,
      heldChange: r.heldChange,
      ownOffer: o.kind === 'offer' ? { price: o.price, rest: r.rest } : undefined,
      before,
    },
    r.balances,
    now,
  );
  const common = marketItemMessage(o.itemType, r.market, r.after);
  const changed = [...after.keys()].filter((id) => {
    const m = userMarketItemMessage(common, before.get(id)!, after.get(id)!);
    if (m.userQuantityDelta || m.userSellOfferDelta || m.userBuyOfferDelta) {
      events.emit('market', 'marketItem', m, audience.user(id));
      return true;
    }
    return false;
  });
  if (common.marketQuantityDelta || common.bestSoDelta || common.bestBoDelta) {
    events.emit('market', 'marketItem', common, audience.allExcept(changed));
  }
  return { itemType: o.itemType, fills: r.fills, market: r.after, position: after.get(o.takerId)!, balance: r.balance };
}

/**
 * Everyone's position after the order, from their position before it and what the order did: the taker's units
 * and own offer, each maker's units and the offer it took from, balances as the ledger left them.
 */
export function positionsAfter(
  s: {
    side: Side;
    takerId: number;
    fills: readonly Fill[];
    heldChange: number;
    /** For an offer order: the taker's offer on its side becomes `rest` units at `price` (0: none). */
    ownOffer?: { price: number; rest: number };
    before: ReadonlyMap<number, MarketPosition>;
  },
  balances: ReadonlyMap<string, number> | undefined,
  now: Date,
): Map<number, MarketPosition> {
  const after = new Map<number, MarketPosition>();
  const balanceOf = (p: MarketPosition) => balances?.get(account.available(p.userId)) ?? p.balance;
  const shrink = (o: StandingOffer | null, by: number) =>
    o && o.quantity > by ? { ...o, quantity: o.quantity - by } : null;
  const bought = s.side === 'BUY';
  for (const f of s.fills) {
    const p = s.before.get(f.makerId)!;
    after.set(f.makerId, {
      ...p,
      quantity: p.quantity + (bought ? -f.quantity : f.quantity),
      held: p.held - (bought ? f.quantity : 0),
      sellOffer: bought ? shrink(p.sellOffer, f.quantity) : p.sellOffer,
      buyOffer: bought ? p.buyOffer : shrink(p.buyOffer, f.quantity),
      balance: balanceOf(p),
    });
  }
  const me = s.before.get(s.takerId)!;
  const units = s.fills.reduce((n, f) => n + f.quantity, 0);
  const own =
    s.ownOffer &&
    (s.ownOffer.rest > 0 ? { price: s.ownOffer.price, quantity: s.ownOffer.rest, since: isoTime(now) } : null);
  after.set(s.takerId, {
    ...me,
    quantity: me.quantity + (bought ? units : -units),
    held: me.held + s.heldChange,
    sellOffer: s.ownOffer && !bought ? own! : me.sellOffer,
    buyOffer: s.ownOffer && bought ? own! : me.buyOffer,
    balance: balanceOf(me),
  });
  return after;
}

/** POST /api/user/graph-item: every item's graphs for $1, once; a second unlock charges nothing. */
export async function unlockGraphs(work: Work, userId: number): Promise<void> {
  await market.lockUserAccount(work.tx, userId);
  if (!(await market.hasUnlockedGraphs(work.tx, userId))) {
    const { entryId } = await ledger.unlockGraphs(work, { userId, price: GRAPH_UNLOCK_PRICE });
    await market.insertGraphUnlock(work.tx, userId, entryId);
  }
}
