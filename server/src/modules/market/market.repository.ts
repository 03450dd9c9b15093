import { sql } from 'drizzle-orm';
import { isoTime } from '../../../../common/time';
import { ITEMS } from '../../../../common/items';
import type { Fill, MarketFigures, RestingOffer, Side, StandingOffer, UserPosition } from '../../../../common/market';
import { rows, type Executor } from '../../db/connection';
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
  await exec.execute(sql`SELECT pg_advisory_xact_lock(${BOOK_LOCK_CLASS}::int, ${itemIndex.get(itemType)!}::int)`);
}

/**
 * The other side of the book as an order on `side` at `limit` would take it: offers that cross, of other users,
 * best price first, then oldest; at most `count` of them (each holds at least one unit).
 */
export async function crossingOffers(
  exec: Executor,
  o: { itemType: string; side: Side; limit: number; takerId: number; count: number },
): Promise<RestingOffer[]> {
  const found = await rows<{ id: number; user_id: number; price: number; quantity: number }>(
    exec,
    o.side === 'BUY'
      ? sql`SELECT id, user_id, price, quantity FROM market_offers
            WHERE item_type = ${o.itemType} AND side = 'SELL' AND price <= ${o.limit} AND user_id <> ${o.takerId}
            ORDER BY price, created_at, id LIMIT ${o.count}`
      : sql`SELECT id, user_id, price, quantity FROM market_offers
            WHERE item_type = ${o.itemType} AND side = 'BUY' AND price >= ${o.limit} AND user_id <> ${o.takerId}
            ORDER BY price DESC, created_at, id LIMIT ${o.count}`,
  );
  return found.map((r) => ({ offerId: r.id, userId: r.user_id, price: r.price, quantity: r.quantity }));
}

/** One user's offer on one side of an item, if they have one. */
export async function offerOf(
  exec: Executor,
  o: { itemType: string; side: Side; userId: number },
): Promise<RestingOffer | undefined> {
  const [r] = await rows<{ id: number; user_id: number; price: number; quantity: number }>(
    exec,
    sql`SELECT id, user_id, price, quantity FROM market_offers
        WHERE user_id = ${o.userId} AND item_type = ${o.itemType} AND side = ${o.side}`,
  );
  return r && { offerId: r.id, userId: r.user_id, price: r.price, quantity: r.quantity };
}

/** A user's side of an item plus what the ledger holds for them: their balance and their units free to offer. */
export interface Position extends UserPosition {
  userId: number;
  held: number;
  balance: number;
}

/** The item's market and the positions of `userIds`, in one round trip. */
export async function snapshot(
  exec: Executor,
  itemType: string,
  userIds: readonly number[],
): Promise<{ market: MarketFigures; positions: Map<number, Position> }> {
  const ids = sql.join(
    [...new Set(userIds)].map((id) => sql`(${id}::bigint)`),
    sql`, `,
  );
  const found = await rows<{
    market_quantity: number;
    best_so: number | null;
    best_bo: number | null;
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
    sql`WITH m AS (
          SELECT coalesce(sum(quantity) FILTER (WHERE side = 'SELL'), 0)::int AS market_quantity,
                 min(price) FILTER (WHERE side = 'SELL') AS best_so,
                 max(price) FILTER (WHERE side = 'BUY') AS best_bo
          FROM market_offers WHERE item_type = ${itemType})
        SELECT m.*, u.id AS user_id, coalesce(i.quantity, 0) AS quantity, coalesce(i.held, 0) AS held,
               coalesce(a.balance, 0) AS balance,
               s.price AS sell_price, s.quantity AS sell_quantity, s.created_at AS sell_since,
               b.price AS buy_price, b.quantity AS buy_quantity, b.created_at AS buy_since
        FROM m CROSS JOIN (VALUES ${ids}) AS u(id)
        LEFT JOIN inventories i ON i.user_id = u.id AND i.item_type = ${itemType}
        LEFT JOIN ledger_accounts a ON a.code = 'user:' || u.id || ':available'
        LEFT JOIN market_offers s ON s.user_id = u.id AND s.item_type = ${itemType} AND s.side = 'SELL'
        LEFT JOIN market_offers b ON b.user_id = u.id AND b.item_type = ${itemType} AND b.side = 'BUY'`,
  );
  const first = found[0]!;
  const offer = (price: number | null, quantity: number | null, since: Date | string | null): StandingOffer | null =>
    price === null ? null : { price, quantity: quantity!, since: isoTime(since!) };
  return {
    market: { quantity: first.market_quantity, bestSo: first.best_so, bestBo: first.best_bo },
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
 * The book after an order: filled resting offers shrink or go, the taker's own offer on `side` is set to
 * `rest` units at `price` (a new offer, so it queues behind older ones at its price) or removed.
 */
export async function applyToBook(
  exec: Executor,
  o: {
    itemType: string;
    fills: Fill[];
    book: RestingOffer[];
    taker?: { userId: number; side: Side; price: number; rest: number };
    at: Date;
  },
): Promise<void> {
  const left = new Map(o.book.map((b) => [b.offerId, b.quantity]));
  for (const f of o.fills) left.set(f.offerId, left.get(f.offerId)! - f.quantity);
  const gone = o.fills.filter((f) => left.get(f.offerId) === 0).map((f) => sql`${f.offerId}::bigint`);
  const shrunk = o.fills.filter((f) => left.get(f.offerId)! > 0);
  const statements = [];
  if (gone.length > 0) statements.push(sql`DELETE FROM market_offers WHERE id IN (${sql.join(gone, sql`, `)})`);
  for (const f of shrunk) {
    statements.push(sql`UPDATE market_offers SET quantity = quantity - ${f.quantity} WHERE id = ${f.offerId}`);
  }
  const t = o.taker;
  if (t && t.rest > 0) {
    statements.push(sql`INSERT INTO market_offers (user_id, item_type, side, price, quantity, created_at)
      VALUES (${t.userId}, ${o.itemType}, ${t.side}, ${t.price}, ${t.rest}, ${o.at.toISOString()}::timestamptz)
      ON CONFLICT (user_id, item_type, side) DO UPDATE
        SET price = excluded.price, quantity = excluded.quantity, created_at = excluded.created_at`);
  } else if (t) {
    statements.push(
      sql`DELETE FROM market_offers WHERE user_id = ${t.userId} AND item_type = ${o.itemType} AND side = ${t.side}`,
    );
  }
  for (const statement of statements) await exec.execute(statement);
}

/** Each fill as a trade, for the graphs and the statements. */
export async function insertTrades(
  exec: Executor,
  o: { itemType: string; side: Side; takerId: number; fills: Fill[]; entryId: number; at: Date },
): Promise<void> {
  if (o.fills.length === 0) return;
  const values = sql.join(
    o.fills.map((f) => {
      const [buyer, seller] = o.side === 'BUY' ? [o.takerId, f.makerId] : [f.makerId, o.takerId];
      return sql`(${o.itemType}, ${f.price}::bigint, ${f.quantity}::int, ${buyer}::bigint, ${seller}::bigint,
                  ${f.fee}::bigint, ${o.side}, ${o.entryId}::bigint, ${o.at.toISOString()}::timestamptz)`;
    }),
    sql`, `,
  );
  await exec.execute(sql`INSERT INTO trades (item_type, price, quantity, buyer_id, seller_id, fee, taker_side, entry_id,
                         created_at) VALUES ${values}`);
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
    side === 'SELL'
      ? sql`SELECT o.id, o.user_id, u.username, o.price, o.quantity, o.created_at FROM market_offers o
            JOIN users u ON u.id = o.user_id WHERE o.item_type = ${itemType} AND o.side = 'SELL'
            ORDER BY o.price, o.created_at, o.id LIMIT ${limit}`
      : sql`SELECT o.id, o.user_id, u.username, o.price, o.quantity, o.created_at FROM market_offers o
            JOIN users u ON u.id = o.user_id WHERE o.item_type = ${itemType} AND o.side = 'BUY'
            ORDER BY o.price DESC, o.created_at, o.id LIMIT ${limit}`,
  );
}

/** Every item's market figures: units on sale and the best prices. */
export async function marketFigures(exec: Executor): Promise<Map<string, MarketFigures>> {
  const found = await rows<{ item_type: string; quantity: number; best_so: number | null; best_bo: number | null }>(
    exec,
    sql`SELECT item_type, coalesce(sum(quantity) FILTER (WHERE side = 'SELL'), 0)::int AS quantity,
               min(price) FILTER (WHERE side = 'SELL') AS best_so, max(price) FILTER (WHERE side = 'BUY') AS best_bo
        FROM market_offers GROUP BY item_type`,
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
