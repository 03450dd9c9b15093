import type { OrderAnswer } from '../../../../common/api/market';
import { itemOf } from '../../../../common/items';
import {
  GRAPH_UNLOCK_PRICE,
  marketItemMessage,
  matchOrder,
  userMarketItemMessage,
  type Fill,
  type RestingOffer,
  type Side,
  type StandingOffer,
} from '../../../../common/market';
import type { Work } from '../../db/unit-of-work';
import { conflict, fieldError, notFound } from '../../http/errors';
import * as ledger from '../../ledger/commands';
import { InsufficientFunds, account, availableBalance } from '../../ledger/ledger';
import { isoTime } from '../../../../common/time';
import { eventsInsert } from '../notifications/notifications.service';
import * as market from './market.repository';
import { refuseOwnOffer } from './market.policy';
import { presentOrder } from './market.presenter';

/*
 * Every market order is one short transaction (DESIGN.md §3): it takes its item's book, reads the crossing offers,
 * matches them (common/market.ts), settles money and units in one ledger entry, updates the book, records the trades
 * and the notification events, and raises the live updates, all committed or none.
 */

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
export const placeSellOffer = (work: Work, c: OrderContext, o: OfferOrder) => placeOffer(work, c, 'SELL', o);

/** POST /api/market/generic-buy-offer: buys what crosses at once, escrows the rest; replaces the old buy offer. */
export const placeBuyOffer = (work: Work, c: OrderContext, o: OfferOrder) => placeOffer(work, c, 'BUY', o);

type OfferOrder = { userId: number; itemType: string; price: number; quantity: number };

async function placeOffer(work: Work, c: OrderContext, side: Side, o: OfferOrder): Promise<OrderAnswer> {
  checkItem(o.itemType);
  const cancel = isCancel(o);
  await market.lockBook(work.tx, o.itemType);
  const before = await market.snapshot(
    work.tx,
    o.itemType,
    [o.userId],
    cancel ? undefined : { takerId: o.userId, query: { kind: 'crossing', side, limit: o.price, count: o.quantity } },
  );
  const me = before.positions.get(o.userId)!;
  const escrowed = side === 'BUY' && me.buyOffer ? me.buyOffer.price * me.buyOffer.quantity : 0;
  if (!cancel && side === 'SELL' && o.quantity > me.quantity) {
    // The old offer's units are released first, so the new one may offer every unit owned (DESIGN.md §8).
    throw fieldError('quantity', TEXT.ownsFewer(me.quantity));
  }
  // A bid must be covered whole at its own price (DESIGN.md §8: missing = price × quantity − (balance + escrow)).
  const needed = o.price * o.quantity;
  if (!cancel && side === 'BUY' && needed > me.balance + escrowed) {
    throw new InsufficientFunds(needed - me.balance - escrowed);
  }
  const { fills, rest } = cancel
    ? { fills: [], rest: 0 }
    : matchOrder({ side, takerId: o.userId, price: o.price, quantity: o.quantity }, before.book, c.feeBps);
  return settle(work, c, {
    itemType: o.itemType,
    takerId: o.userId,
    side,
    fills,
    book: before.book,
    before,
    escrowChange: side === 'BUY' ? o.price * rest - escrowed : 0,
    heldChange: side === 'SELL' ? rest - me.held : 0,
    ownOffer: { price: o.price, rest },
  });
}

/** POST /api/market/buy: one unit from the best other seller, if it asks no more than `requestedPrice`. */
export async function marketBuy(
  work: Work,
  c: OrderContext,
  o: { userId: number; itemType: string; requestedPrice: number },
): Promise<OrderAnswer> {
  checkItem(o.itemType);
  await market.lockBook(work.tx, o.itemType);
  const before = await market.snapshot(work.tx, o.itemType, [o.userId], {
    takerId: o.userId,
    query: { kind: 'crossing', side: 'BUY', limit: Number.MAX_SAFE_INTEGER, count: 1 },
  });
  const best = before.book[0];
  if (!best) throw notFound(TEXT.nobodySells);
  if (best.price > o.requestedPrice) throw conflict({ message: TEXT.priceMoved, bestSo: best.price });
  return takeOne(work, c, { ...o, side: 'BUY', before });
}

/** POST /api/market/buy-from-user and sell-to-user: one unit of that user's offer at the price the caller saw. */
export async function tradeWithUser(
  work: Work,
  c: OrderContext,
  o: { userId: number; itemType: string; side: Side; counterpartyId: number; price: number },
): Promise<OrderAnswer> {
  checkItem(o.itemType);
  refuseOwnOffer(o.userId, o.counterpartyId);
  await market.lockBook(work.tx, o.itemType);
  const before = await market.snapshot(work.tx, o.itemType, [o.userId], {
    takerId: o.userId,
    query: { kind: 'offerOf', side: o.side === 'BUY' ? 'SELL' : 'BUY', userId: o.counterpartyId },
  });
  const offer = before.book[0];
  if (!offer) throw conflict({ message: TEXT.offerGone, price: null });
  if (offer.price !== o.price) throw conflict({ message: TEXT.offerMoved, price: offer.price });
  return takeOne(work, c, { userId: o.userId, itemType: o.itemType, side: o.side, before });
}

/** Takes one unit of the one resting offer `before` read, leaving the taker's own offers as they are. */
async function takeOne(
  work: Work,
  c: OrderContext,
  o: { userId: number; itemType: string; side: Side; before: market.Snapshot },
): Promise<OrderAnswer> {
  const offer = o.before.book[0]!;
  const me = o.before.positions.get(o.userId)!;
  if (o.side === 'BUY' && offer.price > me.balance) throw new InsufficientFunds(offer.price - me.balance);
  if (o.side === 'SELL' && me.quantity - me.held < 1) {
    throw fieldError('itemType', me.quantity === 0 ? TEXT.ownsFewer(0) : TEXT.allOffered);
  }
  const { fills } = matchOrder({ side: o.side, takerId: o.userId, price: offer.price, quantity: 1 }, [offer], c.feeBps);
  return settle(work, c, {
    itemType: o.itemType,
    takerId: o.userId,
    side: o.side,
    fills,
    book: [offer],
    before: o.before,
    escrowChange: 0,
    heldChange: 0,
  });
}

interface Settlement {
  itemType: string;
  takerId: number;
  side: Side;
  fills: Fill[];
  /** The resting offers the fills came from, as read. */
  book: RestingOffer[];
  before: market.Snapshot;
  escrowChange: number;
  heldChange: number;
  /** For an offer order: the taker's offer on its side becomes `rest` units at `price` (0: none). */
  ownOffer?: { price: number; rest: number };
}

async function settle(work: Work, c: OrderContext, s: Settlement): Promise<OrderAnswer> {
  const { entry: result, items } = await ledger.settleOrder(work, s);
  // The maker hears that their resting offer traded: a sell offer sold, a buy offer bought.
  const events = s.fills.map((f) => ({
    userId: f.makerId,
    topic: s.side === 'BUY' ? ('ITEM_SOLD' as const) : ('ITEM_BOUGHT' as const),
    actorId: s.takerId,
    amount: f.price * f.quantity,
    item: s.itemType,
  }));
  const figures =
    (await market.writeOrder(
      work.tx,
      { ...s, entryId: result?.entryId ?? null, at: c.now },
      { events: eventsInsert(work, events), items },
    )) ?? s.before.market;
  const after = positionsAfter(s, result?.balances, c.now);
  const common = marketItemMessage(s.itemType, s.before.market, figures);
  const changed = [...after.keys()].filter((id) => {
    const m = userMarketItemMessage(common, s.before.positions.get(id)!, after.get(id)!);
    if (m.userQuantityDelta || m.userSellOfferDelta || m.userBuyOfferDelta) {
      work.emit('market', 'marketItem', m, id);
      return true;
    }
    return false;
  });
  if (common.marketQuantityDelta || common.bestSoDelta || common.bestBoDelta) {
    work.emit('market', 'marketItem', common, { except: changed });
  }
  return presentOrder(s.itemType, s.fills, figures, after.get(s.takerId)!);
}

/**
 * Everyone's position after the order, from their position before it and what the order did: the taker's units
 * and own offer, each maker's units and the offer it took from, balances as the ledger left them.
 */
export function positionsAfter(
  s: Pick<Settlement, 'side' | 'takerId' | 'fills' | 'heldChange' | 'ownOffer' | 'before'>,
  balances: ReadonlyMap<string, number> | undefined,
  now: Date,
): Map<number, market.Position> {
  const after = new Map<number, market.Position>();
  const balanceOf = (p: market.Position) => balances?.get(account.available(p.userId)) ?? p.balance;
  const shrink = (o: StandingOffer | null, by: number) =>
    o && o.quantity > by ? { ...o, quantity: o.quantity - by } : null;
  const bought = s.side === 'BUY';
  for (const f of s.fills) {
    const p = s.before.positions.get(f.makerId)!;
    after.set(f.makerId, {
      ...p,
      quantity: p.quantity + (bought ? -f.quantity : f.quantity),
      held: p.held - (bought ? f.quantity : 0),
      sellOffer: bought ? shrink(p.sellOffer, f.quantity) : p.sellOffer,
      buyOffer: bought ? p.buyOffer : shrink(p.buyOffer, f.quantity),
      balance: balanceOf(p),
    });
  }
  const me = s.before.positions.get(s.takerId)!;
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
export async function unlockGraphs(work: Work, userId: number): Promise<number> {
  await market.lockUserAccount(work.tx, userId);
  if (!(await market.hasUnlockedGraphs(work.tx, userId))) {
    const { entryId } = await ledger.unlockGraphs(work, { userId, price: GRAPH_UNLOCK_PRICE });
    await market.insertGraphUnlock(work.tx, userId, entryId);
  }
  return availableBalance(work.tx, userId);
}
