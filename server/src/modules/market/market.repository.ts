import { sql, type SQL } from 'drizzle-orm';
import { isoTime } from '../../../../common/time';
import { ITEMS } from '../../../../common/items';
import type { Fill, MarketFigures, RestingOffer, Side, StandingOffer, UserPosition } from '../../../../common/market';
import { rows, type Executor } from '../../db/connection';
import type { ItemsMove } from '../../ledger/items';
import { account } from '../../ledger/ledger';

/** All of the market's SQL. Every write runs inside an order's transaction, under its item's book lock. */

/** Advisory-lock class of the order books (the second key is the item's place in the catalogue). */
const BOOK_LOCK_CLASS = 7_100;
const itemIndex = new Map(ITEMS.map((item, i) => [item.itemType, i]));

/**
 * Takes the item's book for the rest of the transaction: orders on one item run one at a time, as on an exchange's
 * matching engine, while orders on other items run beside them.
 */
export async function lockBook(exec: Executor, itemType: string): Promise<void> {
  // Both keys are integers of ours, written into the text: a statement without parameters travels with the
  // transaction's BEGIN in one round trip (`plainStatement` in db/postgres.ts).
  const key = itemIndex.get(itemType);
  if (key === undefined) throw new Error(`no book for ${itemType}`);
  await exec.execute(sql.raw(`SELECT pg_advisory_xact_lock(${BOOK_LOCK_CLASS}, ${key})`));
}

/** A side of a book in matching order: best price (lowest ask, highest bid), then oldest. */
const bestFirst = (side: Side, alias = '') =>
  sql.raw(
    side === 'SELL'
      ? `${alias}price, ${alias}created_at, ${alias}id`
      : `${alias}price DESC, ${alias}created_at, ${alias}id`,
  );

/**
 * A side written into the text, not bound: the books' partial indexes (`side = 'SELL'`, `side = 'BUY'`) serve only
 * a statement whose side the planner can see, prepared statements included.
 */
const sideLiteral = (side: Side) => sql.raw(side === 'SELL' ? `'SELL'` : `'BUY'`);

/** Every item's figures over its offers, grouped by `item_type`: units on sale, the best ask and the best bid. */
const FIGURES = sql`coalesce(sum(quantity) FILTER (WHERE side = 'SELL'), 0)::int AS quantity,
  min(price) FILTER (WHERE side = 'SELL') AS best_so, max(price) FILTER (WHERE side = 'BUY') AS best_bo`;

/**
 * One item's figures from its two sides, `sells` and `buys` (relations of price and quantity). Read from the
 * table, each side names its side in the text so that the side's partial index serves it: an order reads the few
 * offers of its item, never the whole book table with its dead rows (a whole-table scan made every order slower
 * as the books churned).
 */
const figuresOver = (sells: SQL, buys: SQL) =>
  sql`(SELECT coalesce(sum(quantity), 0)::int FROM ${sells} AS s) AS quantity,
      (SELECT min(price) FROM ${sells} AS s) AS best_so, (SELECT max(price) FROM ${buys} AS b) AS best_bo`;

/** One side of an item's book as it stands, through that side's partial index. */
const sideOf = (itemType: string, side: Side, also?: SQL) =>
  sql`(SELECT price, quantity FROM market_offers
       WHERE item_type = ${itemType} AND side = ${sideLiteral(side)}${also ? sql` AND ${also}` : sql``})`;

const itemFigures = (itemType: string) => figuresOver(sideOf(itemType, 'SELL'), sideOf(itemType, 'BUY'));

/** The statement that reads one item's figures (exported for the test of its plan). */
export const figuresSql = (itemType: string) => sql`SELECT ${itemFigures(itemType)}`;

/** Which resting offers an order reads before matching. */
export type BookQuery =
  /** The other side as an order on `side` at `limit` would take it: crossing offers of other users, best first. */
  | { kind: 'crossing'; side: Side; limit: number; count: number }
  /** One user's offer on one side. */
  | { kind: 'offerOf'; side: Side; userId: number };

function bookSql(itemType: string, takerId: number, q: BookQuery): SQL {
  if (q.kind === 'offerOf') {
    return sql`SELECT 1 AS n, id, user_id, price, quantity FROM market_offers
      WHERE user_id = ${q.userId} AND item_type = ${itemType} AND side = ${q.side}`;
  }
  // A buying order takes the asks, a selling one the bids: the ones at or better than its limit.
  const other: Side = q.side === 'BUY' ? 'SELL' : 'BUY';
  const crosses = q.side === 'BUY' ? sql`price <= ${q.limit}` : sql`price >= ${q.limit}`;
  return sql`SELECT row_number() OVER (ORDER BY ${bestFirst(other)}) AS n, id, user_id, price, quantity
    FROM market_offers WHERE item_type = ${itemType} AND side = ${sideLiteral(other)} AND ${crosses} AND user_id <> ${takerId}
    ORDER BY ${bestFirst(other)} LIMIT ${q.count}`;
}

/** A user's side of an item plus what the ledger holds for them: their balance and the units their offer holds. */
export interface Position extends UserPosition {
  userId: number;
  held: number;
  balance: number;
}

export interface Snapshot {
  market: MarketFigures;
  positions: Map<number, Position>;
  /** The resting offers the book query found, in its order. */
  book: RestingOffer[];
}

/**
 * The item's market, the resting offers `book` asks for, and the positions of `userIds` and of those offers' owners,
 * in one round trip.
 */
export async function snapshot(
  exec: Executor,
  itemType: string,
  userIds: readonly number[],
  book?: { takerId: number; query: BookQuery },
): Promise<Snapshot> {
  const ids = sql.join(
    [...new Set(userIds)].map((id) => sql`(${id}::bigint)`),
    sql`, `,
  );
  const offers = book
    ? bookSql(itemType, book.takerId, book.query)
    : sql`SELECT 1::bigint AS n, NULL::bigint AS id, NULL::bigint AS user_id, NULL::bigint AS price,
            NULL::int AS quantity WHERE false`;
  const found = await rows<{
    market_quantity: number;
    best_so: number | null;
    best_bo: number | null;
    book: { id: number; user_id: number; price: number; quantity: number }[] | null;
    user_id: number;
    quantity: number;
    held: number;
    balance: number;
    sell_price: number | null;
    sell_quantity: number | null;
    sell_since: Date | string | null;
    buy_price: number | null;
    buy_quantity: number | null;
    buy_since: Date | string | null;
  }>(
    exec,
    sql`WITH bk AS (${offers}),
        m AS (
          SELECT ${itemFigures(itemType)},
                 (SELECT json_agg(json_build_object('id', id, 'user_id', user_id, 'price', price, 'quantity', quantity)
                   ORDER BY n) FROM bk) AS book),
        u AS (SELECT id FROM (VALUES ${ids}) AS v(id) UNION SELECT user_id FROM bk)
        SELECT m.quantity AS market_quantity, m.best_so, m.best_bo, m.book, u.id AS user_id, coalesce(i.quantity, 0) AS quantity, coalesce(i.held, 0) AS held,
               coalesce(a.balance, 0) AS balance,
               s.price AS sell_price, s.quantity AS sell_quantity, s.created_at AS sell_since,
               b.price AS buy_price, b.quantity AS buy_quantity, b.created_at AS buy_since
        FROM m CROSS JOIN u
        LEFT JOIN inventories i ON i.user_id = u.id AND i.item_type = ${itemType}
        LEFT JOIN ledger_accounts a ON a.code = 'user:' || u.id || ':available'
        LEFT JOIN market_offers s ON s.user_id = u.id AND s.item_type = ${itemType} AND s.side = 'SELL'
        LEFT JOIN market_offers b ON b.user_id = u.id AND b.item_type = ${itemType} AND b.side = 'BUY'`,
  );
  const first = found[0]!;
  const offer = (price: number | null, quantity: number | null, since: Date | string | null): StandingOffer | null =>
    price === null ? null : { price: Number(price), quantity: quantity!, since: isoTime(since!) };
  return {
    market: { quantity: first.market_quantity, bestSo: first.best_so, bestBo: first.best_bo },
    book: (first.book ?? []).map((r) => ({
      offerId: Number(r.id),
      userId: Number(r.user_id),
      price: Number(r.price),
      quantity: Number(r.quantity),
    })),
    positions: new Map(
      found.map((r) => [
        Number(r.user_id),
        {
          userId: Number(r.user_id),
          quantity: r.quantity,
          held: r.held,
          balance: r.balance,
          sellOffer: offer(r.sell_price, r.sell_quantity, r.sell_since),
          buyOffer: offer(r.buy_price, r.buy_quantity, r.buy_since),
        },
      ]),
    ),
  };
}

/**
 * The book after an order, in one statement: filled resting offers shrink or go, the taker's own offer on its side
 * becomes `rest` units at `price` (a new offer, so it queues behind older ones at its price) or goes, and each fill
 * is recorded as a trade for the graphs and the statements. Answers the item's figures after the order, read in the
 * same statement: the offers as they were, less those it changed, plus the rows it wrote (a statement does not see
 * its own writes); null when the order changed nothing, so the figures stand as they were.
 */
export async function writeOrder(
  exec: Executor,
  o: {
    itemType: string;
    side: Side;
    takerId: number;
    fills: Fill[];
    book: RestingOffer[];
    ownOffer?: { price: number; rest: number };
    entryId: number | null;
    at: Date;
  },
  /** Other writes of the same order, in the same statement: its notification events, the units' move. */
  also: { events?: SQL; items?: ItemsMove | null } = {},
): Promise<MarketFigures | null> {
  const at = sql`${o.at.toISOString()}::timestamptz`;
  const left = new Map(o.book.map((b) => [b.offerId, b.quantity]));
  for (const f of o.fills) left.set(f.offerId, left.get(f.offerId)! - f.quantity);
  const gone = o.fills.filter((f) => left.get(f.offerId) === 0);
  const shrunk = o.fills.filter((f) => left.get(f.offerId)! > 0);
  const parts: SQL[] = [];
  if (gone.length > 0) {
    const ids = sql.join(
      gone.map((f) => sql`${f.offerId}::bigint`),
      sql`, `,
    );
    parts.push(sql`gone AS (DELETE FROM market_offers WHERE id IN (${ids}) RETURNING id)`);
  }
  if (shrunk.length > 0) {
    const values = sql.join(
      shrunk.map((f) => sql`(${f.offerId}::bigint, ${f.quantity}::int)`),
      sql`, `,
    );
    parts.push(sql`shrunk AS (UPDATE market_offers o SET quantity = o.quantity - v.quantity
      FROM (VALUES ${values}) AS v(id, quantity) WHERE o.id = v.id RETURNING o.id, o.side, o.price, o.quantity)`);
  }
  const own = o.ownOffer;
  if (own && own.rest > 0) {
    parts.push(sql`own AS (INSERT INTO market_offers (user_id, item_type, side, price, quantity, created_at)
      VALUES (${o.takerId}, ${o.itemType}, ${o.side}, ${own.price}, ${own.rest}, ${at})
      ON CONFLICT (user_id, item_type, side) DO UPDATE
        SET price = excluded.price, quantity = excluded.quantity, created_at = excluded.created_at
      RETURNING side, price, quantity)`);
  } else if (own) {
    parts.push(sql`own AS (DELETE FROM market_offers
      WHERE user_id = ${o.takerId} AND item_type = ${o.itemType} AND side = ${o.side})`);
  }
  if (o.fills.length > 0) {
    const values = sql.join(
      o.fills.map((f) => {
        const [buyer, seller] = o.side === 'BUY' ? [o.takerId, f.makerId] : [f.makerId, o.takerId];
        return sql`(${o.itemType}, ${f.price}::bigint, ${f.quantity}::int, ${buyer}::bigint, ${seller}::bigint,
                    ${f.fee}::bigint, ${o.side}, ${o.entryId}::bigint, ${at})`;
      }),
      sql`, `,
    );
    parts.push(sql`traded AS (INSERT INTO trades
      (item_type, price, quantity, buyer_id, seller_id, fee, taker_side, entry_id, created_at) VALUES ${values})`);
  }
  if (also.events) parts.push(sql`events AS (${also.events})`);
  if (also.items) parts.push(...also.items.parts);
  if (parts.length === 0) return null;

  const changed: SQL[] = [];
  const written: SQL[] = [];
  if (gone.length > 0) changed.push(sql`id NOT IN (SELECT id FROM gone)`);
  if (shrunk.length > 0) {
    changed.push(sql`id NOT IN (SELECT id FROM shrunk)`);
    written.push(sql`SELECT side, price, quantity FROM shrunk`);
  }
  if (own && own.rest > 0) written.push(sql`SELECT side, price, quantity FROM own`);
  const after = (side: Side) => {
    // The taker's own offer on the order's side is replaced or gone; every other offer is as it was unless changed.
    const unchanged = own && side === o.side ? [...changed, sql`user_id <> ${o.takerId}`] : changed;
    return sql`(${sql.join(
      [
        sideOf(o.itemType, side, unchanged.length > 0 ? sql.join(unchanged, sql` AND `) : undefined),
        ...written.map((w) => sql`SELECT price, quantity FROM (${w}) AS w WHERE side = ${sideLiteral(side)}`),
      ],
      sql` UNION ALL `,
    )})`;
  };
  const [r] = await rows<{ quantity: number; best_so: number | null; best_bo: number | null; took: number[] | null }>(
    exec,
    sql`WITH ${sql.join(parts, sql`, `)}
        SELECT ${figuresOver(after('SELL'), after('BUY'))}, ${also.items?.took ?? sql`NULL::bigint[]`} AS took`,
  );
  also.items?.check(r!.took);
  return { quantity: r!.quantity, bestSo: r!.best_so, bestBo: r!.best_bo };
}

/** The offers of one side of a book, best first, with their owners' names (the offers popups). */
export async function offersOn(exec: Executor, itemType: string, side: Side, limit: number) {
  return rows<{
    id: number;
    user_id: number;
    username: string;
    price: number;
    quantity: number;
    created_at: Date | string;
  }>(
    exec,
    sql`SELECT o.id, o.user_id, u.username, o.price, o.quantity, o.created_at FROM market_offers o
        JOIN users u ON u.id = o.user_id WHERE o.item_type = ${itemType} AND o.side = ${sideLiteral(side)}
        ORDER BY ${bestFirst(side, 'o.')} LIMIT ${limit}`,
  );
}

/** One item's market figures: units on sale and the best prices. */
export async function figuresOf(exec: Executor, itemType: string): Promise<MarketFigures> {
  const [r] = await rows<{ quantity: number; best_so: number | null; best_bo: number | null }>(
    exec,
    figuresSql(itemType),
  );
  return { quantity: r!.quantity, bestSo: r!.best_so, bestBo: r!.best_bo };
}

/** Every item's market figures: units on sale and the best prices. */
export async function marketFigures(exec: Executor): Promise<Map<string, MarketFigures>> {
  const found = await rows<{ item_type: string; quantity: number; best_so: number | null; best_bo: number | null }>(
    exec,
    sql`SELECT item_type, ${FIGURES} FROM market_offers GROUP BY item_type`,
  );
  return new Map(found.map((r) => [r.item_type, { quantity: r.quantity, bestSo: r.best_so, bestBo: r.best_bo }]));
}

/** A user's standing offers on every item. */
export async function offersOfUser(exec: Executor, userId: number) {
  return rows<{ item_type: string; side: Side; price: number; quantity: number; created_at: Date | string }>(
    exec,
    sql`SELECT item_type, side, price, quantity, created_at FROM market_offers WHERE user_id = ${userId}`,
  );
}

/** The latest trades of an item, newest first. */
export async function lastTrades(exec: Executor, itemType: string, limit: number) {
  return rows<{ created_at: Date | string; price: number }>(
    exec,
    sql`SELECT created_at, price FROM trades WHERE item_type = ${itemType} ORDER BY created_at DESC, id DESC LIMIT ${limit}`,
  );
}

/** An item's trades per month (UTC) since `from`: unit-weighted average, lowest, highest and units. */
export async function monthlyTrades(exec: Executor, itemType: string, from: Date) {
  return rows<{ label: string; average: number; lowest: number; highest: number; volume: number }>(
    exec,
    sql`SELECT to_char(date_trunc('month', created_at AT TIME ZONE 'UTC'), 'YYYY-MM') AS label,
               round(sum(price * quantity)::numeric / sum(quantity))::bigint AS average,
               min(price) AS lowest, max(price) AS highest, sum(quantity)::int AS volume
        FROM trades WHERE item_type = ${itemType} AND created_at >= ${from.toISOString()}::timestamptz GROUP BY 1`,
  );
}

/** Whether the user paid to see the graphs. */
export async function hasUnlockedGraphs(exec: Executor, userId: number): Promise<boolean> {
  const found = await rows(exec, sql`SELECT 1 FROM graph_unlocks WHERE user_id = ${userId}`);
  return found.length > 0;
}

/** Records the unlock; false when the user had already unlocked (a concurrent unlock won). */
export async function insertGraphUnlock(exec: Executor, userId: number, entryId: number): Promise<boolean> {
  const inserted = await rows(
    exec,
    sql`INSERT INTO graph_unlocks (user_id, entry_id) VALUES (${userId}, ${entryId}) ON CONFLICT DO NOTHING RETURNING 1`,
  );
  return inserted.length > 0;
}

/** Serializes a user's graph unlocks: a replayed or double-clicked unlock must not pay twice. */
export async function lockUserAccount(exec: Executor, userId: number): Promise<void> {
  await exec.execute(sql`SELECT 1 FROM ledger_accounts WHERE code = ${account.available(userId)} FOR UPDATE`);
}
