import { sql } from 'drizzle-orm';
import type { MarketFigures, Side } from '../../../../common/market';
import { sqlRows, type Executor, type Columns } from '../../db/connection';
import type { marketOffers, trades } from './market.tables';
import { account } from '../../ledger/ledger';

/** The market's reads and the graph unlock; an order's own writes are the ledger's (`marketOrder`, ledger/market.ts). */

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

/** The statement that reads one item's figures, through each side's partial index (exported for its plan test). */
export const figuresSql = (itemType: string) =>
  sql<
    Columns<typeof marketOffers, 'quantity'> & { best_so: number | null; best_bo: number | null }
  >`SELECT (SELECT coalesce(sum(quantity), 0)::int FROM market_offers WHERE item_type = ${itemType} AND side = 'SELL') AS quantity,
      (SELECT min(price) FROM market_offers WHERE item_type = ${itemType} AND side = 'SELL') AS best_so,
      (SELECT max(price) FROM market_offers WHERE item_type = ${itemType} AND side = 'BUY') AS best_bo`;

/** The offers of one side of a book, best first, with their owners' names (the offers popups). */
/** An offer of the book with its user's name. */
export type OfferRow = Columns<typeof marketOffers, 'id' | 'user_id' | 'price' | 'quantity' | 'created_at'> & {
  username: string;
};

export async function offersOn(exec: Executor, itemType: string, side: Side, limit: number): Promise<OfferRow[]> {
  return sqlRows(
    exec,
    sql<OfferRow>`SELECT o.id, o.user_id, u.username, o.price, o.quantity, o.created_at FROM market_offers o
        JOIN users u ON u.id = o.user_id WHERE o.item_type = ${itemType} AND o.side = ${sideLiteral(side)}
        ORDER BY ${bestFirst(side, 'o.')} LIMIT ${limit}`,
  );
}

/** One item's market figures: units on sale and the best prices. */
export async function figuresOf(exec: Executor, itemType: string): Promise<MarketFigures> {
  const [r] = await sqlRows(exec, figuresSql(itemType));
  return { quantity: r!.quantity, bestSo: r!.best_so, bestBo: r!.best_bo };
}

/** Every item's market figures: units on sale and the best prices. */
export async function marketFigures(exec: Executor): Promise<Map<string, MarketFigures>> {
  const found = await sqlRows(
    exec,
    sql<
      Columns<typeof marketOffers, 'item_type' | 'quantity'> & { best_so: number | null; best_bo: number | null }
    >`SELECT item_type, ${FIGURES} FROM market_offers GROUP BY item_type`,
  );
  return new Map(found.map((r) => [r.item_type, { quantity: r.quantity, bestSo: r.best_so, bestBo: r.best_bo }]));
}

/** A user's standing offers on every item. */
export async function offersOfUser(exec: Executor, userId: number) {
  return sqlRows(
    exec,
    sql<
      Columns<typeof marketOffers, 'item_type' | 'side' | 'price' | 'quantity' | 'created_at'>
    >`SELECT item_type, side, price, quantity, created_at FROM market_offers WHERE user_id = ${userId}`,
  );
}

/** The latest trades of an item, newest first. */
export type TradeRow = Columns<typeof trades, 'created_at' | 'price'>;

export async function lastTrades(exec: Executor, itemType: string, limit: number): Promise<TradeRow[]> {
  return sqlRows(
    exec,
    sql<TradeRow>`SELECT created_at, price FROM trades WHERE item_type = ${itemType} ORDER BY created_at DESC, id DESC LIMIT ${limit}`,
  );
}

/** An item's trades per month (UTC) since `from`: unit-weighted average, lowest, highest and units. */
export async function monthlyTrades(exec: Executor, itemType: string, from: Date) {
  return sqlRows(
    exec,
    sql<{
      label: string;
      average: number;
      lowest: number;
      highest: number;
      volume: number;
    }>`SELECT to_char(date_trunc('month', created_at AT TIME ZONE 'UTC'), 'YYYY-MM') AS label,
               round(sum(price * quantity)::numeric / sum(quantity))::bigint AS average,
               min(price) AS lowest, max(price) AS highest, sum(quantity)::int AS volume
        FROM trades WHERE item_type = ${itemType} AND created_at >= ${from.toISOString()}::timestamptz GROUP BY 1`,
  );
}

/** Whether the user paid to see the graphs. */
export async function hasUnlockedGraphs(exec: Executor, userId: number): Promise<boolean> {
  const found = await sqlRows(exec, sql`SELECT 1 FROM graph_unlocks WHERE user_id = ${userId}`);
  return found.length > 0;
}

/** Records the unlock; false when the user had already unlocked (a concurrent unlock won). */
export async function insertGraphUnlock(exec: Executor, userId: number, entryId: number): Promise<boolean> {
  const inserted = await sqlRows(
    exec,
    sql`INSERT INTO graph_unlocks (user_id, entry_id) VALUES (${userId}, ${entryId}) ON CONFLICT DO NOTHING RETURNING 1`,
  );
  return inserted.length > 0;
}

/** Serializes a user's graph unlocks: a replayed or double-clicked unlock must not pay twice. */
export async function lockUserAccount(exec: Executor, userId: number): Promise<void> {
  await exec.execute(sql`SELECT 1 FROM ledger_accounts WHERE code = ${account.available(userId)} FOR UPDATE`);
}
