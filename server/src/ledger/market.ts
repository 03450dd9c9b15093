import { sql } from 'drizzle-orm';
import { ITEMS, itemName } from '../../../common/items';
import type { Fill, MarketFigures, Side, StandingOffer, UserPosition } from '../../../common/market';
import { isoTime } from '../../../common/time';
import { sqlRows } from '../db/connection';
import { gatheredLanes } from '../db/lanes';
import { int, literal, type Events, type OneCaller } from '../db/one-call';
import { audience, isDeadlock, type Work } from '../db/unit-of-work';
import { InsufficientItems } from './items';
import { InsufficientFunds, availableOwner } from './ledger';

/**
 * A market order's money and units (docs/product.md#market), in one call of the database's `market_order` (migration
 * 0010, docs/decisions.md "A market order in one call"; since migration 0021 with the makers' pushes, docs/decisions.md
 * "Issue 28: a market order in one round trip"; since migration 0024 in fewer statements, docs/decisions.md
 * "Issue 28: less work per market order"). Under its item's book lock (advisory lock 7100 and the item's place in
 * the catalogue: orders on one item run one at a time, as on an exchange's matching engine, while orders on other
 * items run beside them) it reads the book and the taker's position, matches by the rules of
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
  /** How long the makers' pushes may wait for their devices (push.service.ts PUSH_TTL_SECONDS). */
  pushTtlSeconds: number;
}

/** Why the book refused an order (a short balance or a missing unit throws instead); nothing was written. */
export type MarketRefusal =
  | { refused: 'ownsFewer' | 'allOffered'; owned: number }
  | { refused: 'nobodySells' | 'offerGone' }
  | { refused: 'priceMoved'; bestSo: number }
  | { refused: 'offerMoved'; price: number }
  /** Only from a call `marketOrderCall` wrapped as a member's (`asCaller`): the taker is suspended (until null: for good). */
  | { refused: 'suspended'; until: string | null };

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
  /** The makers told of their fill (who did not block the taker), each once, in fill order: their pushes are queued. */
  told: number[];
  /** The taker's available balance after the order, read last in its transaction (the paid answer's). */
  balance: number;
}

type Answer =
  | MarketRefusal
  | { refused: 'short'; missing: number }
  | { refused: 'itemsShort'; userId: number }
  | (Omit<MarketOutcome, 'balances'> & { balances: [string, number][] });

/** The refusals `market_order` raises (SQLSTATE MK001) once it wrote something, so that nothing stays. */
const RAISED_REFUSAL = 'MK001';

/**
 * The call's text. Every argument is a number, a side, a kind, a catalogue item or its name, written into the text
 * (`int`, `literal`): a statement without parameters travels with its transaction's BEGIN (and, as one call, with its
 * COMMIT), and the function's own statements are planned once per connection.
 */
function callText(o: MarketOrder): string {
  return `SELECT ${callExpression(o)} AS r`;
}

function callExpression(o: MarketOrder): string {
  const book = itemIndex.get(o.itemType);
  if (book === undefined) throw new Error(`no book for ${o.itemType}`);
  const side = o.side === 'BUY' ? 'BUY' : 'SELL';
  const kind = o.kind === 'offer' || o.kind === 'market' ? o.kind : 'take';
  return (
    `market_order('${kind}', ${literal(o.itemType)}, ${book}, '${side}', ${int(o.takerId)}, ` +
    `${int(o.price)}, ${int(o.quantity)}, ${int(o.counterpartyId)}, ${int(o.feeBps)}, ` +
    `'${o.at.toISOString()}'::timestamptz, ${literal(itemName(o.itemType))}, ${int(o.pushTtlSeconds)})`
  );
}

/** A refusal the function raised, as the error the caller expects; anything else as it came. */
function raisedRefusal(err: unknown, o: MarketOrder): unknown {
  const e = (err as { cause?: unknown })?.cause ?? err;
  const { code, detail } = (e ?? {}) as { code?: string; detail?: string };
  if (code !== RAISED_REFUSAL || detail === undefined) return err;
  const r = JSON.parse(detail) as Answer;
  if ('refused' in r && r.refused === 'short') return new InsufficientFunds(r.missing);
  if ('refused' in r && r.refused === 'itemsShort') return new InsufficientItems(r.userId, o.itemType);
  return err;
}

/** The function's answer: a refusal of the book, or the outcome, whose movers hear their new balance. */
function outcome(r: Answer, o: MarketOrder, events: Events): MarketOutcome | MarketRefusal {
  if ('refused' in r) {
    if (r.refused === 'short') throw new InsufficientFunds(r.missing);
    if (r.refused === 'itemsShort') throw new InsufficientItems(r.userId, o.itemType);
    return r;
  }
  const balances = new Map(r.balances);
  for (const [code, value] of balances) {
    const owner = availableOwner(code);
    if (owner !== undefined) events.emit('balance', 'update', { value }, audience.user(owner));
  }
  const offer = (s: StandingOffer | null) => s && { ...s, since: isoTime(s.since) };
  const positions = r.positions.map((p) => ({ ...p, sellOffer: offer(p.sellOffer), buyOffer: offer(p.buyOffer) }));
  return { ...r, positions, balances };
}

/**
 * Places an order in the caller's unit of work (a keyed route's, a suspension's cancels). A short balance throws
 * InsufficientFunds and a missing unit InsufficientItems (the caller's transaction then rolls back); the book's own
 * refusals are answered. The users whose available money moved hear their new balance.
 */
export async function marketOrder(work: Work, o: MarketOrder): Promise<MarketOutcome | MarketRefusal> {
  let row: { r: Answer } | undefined;
  try {
    [row] = await sqlRows(work.tx, sql<{ r: Answer }>`${sql.raw(callText(o))}`);
  } catch (err) {
    throw raisedRefusal(err, o);
  }
  return outcome(row!.r, o, work);
}

/**
 * Places an order as a transaction of its own in one round trip (`transactCall`: BEGIN, the call and COMMIT sent
 * together), and hands `then` what it did once committed. A refusal of the book committed nothing but the book's
 * lock: `then` gets it to throw; a short balance or a missing unit throws before `then`, as in `marketOrder`.
 *
 * One book's orders run one at a time under its lock, which is held until the commit's WAL flush (docs/decisions.md,
 * "Issue 28: one book's orders gathered into one call"). So they wait here instead, as the ledger's `spendAlone`
 * gathers one user's spends: a book's first order goes at once, and the orders on that book that arrive while it
 * runs go together as the next call, each its own `market_order` in the order they came (`UNION ALL`), one
 * transaction and one flush for them all. Each order sees the book as the ones before it left it, exactly as if it
 * had waited for the lock, and is answered on its own. If the gathered call fails in the database (a refusal raised
 * after a write, `MK001`, or a deadlock with another book's call, which committed nothing), each of its orders runs
 * again alone, in the same order; an order alone that meets a deadlock runs again.
 *
 * `asCaller` wraps the call's SQL expression in what its caller's standing requires (a member's: http/membership.ts
 * `asMember`, which may answer the refusal 'suspended' instead).
 */
export function marketOrderCall<T>(
  caller: OneCaller,
  o: MarketOrder,
  then: (r: MarketOutcome | MarketRefusal, events: Events) => T,
  asCaller: (call: string) => string = (call) => call,
): Promise<T> {
  let call: string;
  try {
    call = `SELECT ${asCaller(callExpression(o))} AS r`;
  } catch (err) {
    return Promise.reject(err);
  }
  const book = itemIndex.get(o.itemType)!;
  return new Promise<T>((resolve, reject) =>
    bookLanes(caller, book, {
      call,
      read: (r, events) => {
        try {
          const answer = then(outcome(r, o, events), events);
          return () => resolve(answer);
        } catch (err) {
          return () => reject(err);
        }
      },
      fail: (err) => reject(raisedRefusal(err, o)),
    }),
  );
}

/** The most orders of one book that one call carries. */
const MAX_ORDERS_A_CALL = 32;

interface WaitingOrder {
  call: string;
  /** Reads the order's answer (raising its live events) and hands back how its promise settles. */
  read(r: Answer, events: Events): () => void;
  fail(err: unknown): void;
}

/** The SQLSTATE of an error PostgreSQL answered (the transaction did not commit), if it is one. */
const sqlState = (err: unknown): string | undefined => {
  const e = (err as { cause?: unknown })?.cause ?? err;
  const code = (e as { code?: unknown })?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
};
/**
 * A deadlock: a gathered call holds the rows of several users' orders, taken order by order, so it may meet another
 * book's call (or order) that took two of them the other way. PostgreSQL rolls one back: it runs again.
 */
const MAX_TRIES = 3;

/** One order alone, again after a deadlock (nothing of it committed), at most MAX_TRIES times. */
async function runAlone(caller: OneCaller, w: WaitingOrder): Promise<void> {
  for (let tries = 1; ; tries++) {
    try {
      return await runCall(caller, [w]);
    } catch (err) {
      if (tries >= MAX_TRIES || !isDeadlock(err)) return w.fail(err);
    }
  }
}

async function runCall(caller: OneCaller, batch: readonly WaitingOrder[]): Promise<void> {
  // Each call is a SELECT of its own; UNION ALL runs them in order, one answer row each.
  const settle = await caller.transactCall<{ r: Answer }, (() => void)[]>(
    batch.map((w) => w.call).join(' UNION ALL '),
    (rows, events) => batch.map((w, i) => w.read(rows[i]!.r, events)),
  );
  for (const s of settle) s();
}

/** One book's orders: a gathered call that fails in the database runs its orders again alone. */
const bookLanes = gatheredLanes<WaitingOrder>(MAX_ORDERS_A_CALL, async (caller, batch) => {
  if (batch.length === 1) return runAlone(caller, batch[0]!);
  try {
    await runCall(caller, batch);
  } catch (err) {
    if (sqlState(err) !== undefined) for (const w of batch) await runAlone(caller, w);
    else for (const w of batch) w.fail(err);
  }
});
