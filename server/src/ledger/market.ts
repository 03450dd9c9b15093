import { sql } from 'drizzle-orm';
import { ITEMS } from '../../../common/items';
import type { Fill, MarketFigures, Side, StandingOffer, UserPosition } from '../../../common/market';
import { isoTime } from '../../../common/time';
import { sqlRows } from '../db/connection';
import type { Work } from '../db/unit-of-work';
import { InsufficientItems } from './items';
import { InsufficientFunds, announceBalances } from './ledger';

/**
 * A market order's money and units (docs/product.md#market), in one call of the database's `market_order` (migration
 * 0010, docs/decisions.md "A market order in one call"). Under its item's book lock (advisory lock 7100 and the
 * item's place in the catalogue: orders on one item run one at a time, as on an exchange's matching engine, while
 * orders on other items run beside them) it reads the book and the taker's position, matches by the rules of
 * common/market.ts (`matchOrder`, `feeOf`), and writes one journal entry as `post` would (the user accounts in code
 * order, each guarded at zero), the units as `postItems` would (guarded takes and holds, postings that balance),
 * the book, the trades and the makers' notification events. market.test.ts holds the function to matchOrder.
 */

const itemIndex = new Map(ITEMS.map((item, i) => [item.itemType, i]));

/** A user's side of an item plus what the ledger holds for them: their balance and the units their offer holds. */
export interface MarketPosition extends UserPosition {
  userId: number;
  held: number;
  balance: number;
}

export interface MarketOrder {
  /** An offer (price 0 and quantity 0: cancel), a market buy of one unit, or one unit taken of a user's offer. */
  kind: 'offer' | 'market' | 'take';
  itemType: string;
  /** The taker's side. */
  side: Side;
  takerId: number;
  /** The offer's price; a market buy's highest price; a take's price as the taker saw it. */
  price: number;
  quantity: number;
  /** A take's counterparty. */
  counterpartyId: number | null;
  feeBps: number;
  at: Date;
}

/** Why the book refused an order (a short balance or a missing unit throws instead); nothing was written. */
export type MarketRefusal =
  | { refused: 'ownsFewer' | 'allOffered'; owned: number }
  | { refused: 'nobodySells' | 'offerGone' }
  | { refused: 'priceMoved'; bestSo: number }
  | { refused: 'offerMoved'; price: number };

/** What an order did. */
export interface MarketOutcome {
  /** The item's figures before and after. */
  market: MarketFigures;
  after: MarketFigures;
  /** The taker's position before the order, then each filled maker's. */
  positions: MarketPosition[];
  fills: Fill[];
  /** Units of an offer order that rest on the book. */
  rest: number;
  /** The change in what the taker's sell offer holds. */
  heldChange: number;
  entryId: number | null;
  /** The new balance of every user account the order moved. */
  balances: Map<string, number>;
}

type Answer =
  | MarketRefusal
  | { refused: 'short'; missing: number }
  | { refused: 'itemsShort'; userId: number }
  | (Omit<MarketOutcome, 'balances'> & { balances: [string, number][] });

/** A whole number of ours, written into a statement's text (never text from a request). */
function int(n: number | null): string {
  if (n === null) return 'NULL';
  if (!Number.isSafeInteger(n)) throw new Error(`not an integer: ${n}`);
  return String(n);
}

/**
 * Places an order in the caller's transaction. A short balance throws InsufficientFunds and a missing unit
 * InsufficientItems (the caller's transaction then rolls back); the book's own refusals are answered. Every
 * argument is a number, a side, a kind or a catalogue item, written into the text: a statement without parameters
 * travels with the transaction's BEGIN in one round trip (`plainStatement` in db/postgres.ts), and the function's
 * own statements are planned once per connection. The users whose available money moved hear their new balance.
 */
export async function marketOrder(work: Work, o: MarketOrder): Promise<MarketOutcome | MarketRefusal> {
  const book = itemIndex.get(o.itemType);
  if (book === undefined) throw new Error(`no book for ${o.itemType}`);
  const side = o.side === 'BUY' ? 'BUY' : 'SELL';
  const [row] = await sqlRows(
    work.tx,
    sql<{ r: Answer }>`${sql.raw(
      `SELECT market_order('${o.kind}', '${o.itemType}', ${book}, '${side}', ${int(o.takerId)}, ${int(o.price)}, ` +
        `${int(o.quantity)}, ${int(o.counterpartyId)}, ${int(o.feeBps)}, '${o.at.toISOString()}'::timestamptz) AS r`,
    )}`,
  );
  const r = row!.r;
  if ('refused' in r) {
    if (r.refused === 'short') throw new InsufficientFunds(r.missing);
    if (r.refused === 'itemsShort') throw new InsufficientItems(r.userId, o.itemType);
    return r;
  }
  const balances = new Map(r.balances);
  announceBalances(work, balances);
  const offer = (s: StandingOffer | null) => s && { ...s, since: isoTime(s.since) };
  const positions = r.positions.map((p) => ({ ...p, sellOffer: offer(p.sellOffer), buyOffer: offer(p.buyOffer) }));
  return { ...r, positions, balances };
}
