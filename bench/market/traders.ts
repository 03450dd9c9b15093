/**
 * What the market benchmarks share (run.ts, ceiling.ts, cpu.ts): the books they trade and the users who trade on
 * them, each with money and units of every traded item, put there through the ledger as the test factories do.
 */
import { sql } from 'drizzle-orm';
import { ITEMS_BY_TIER, type Item } from '../../common/items';
import { sqlRows, type Database } from '../../server/src/db/connection';
import { transact, type WorkDeps } from '../../server/src/db/unit-of-work';
import { creditTopUp, mintLoot, openUserAccounts } from '../../server/src/ledger/commands';
import { inParallel } from '../pgbench';

/** The 26 letters, every uncommon emoji and the first four of each rarer tier: 46 books. */
export const TRADED: readonly Item[] = [
  ...ITEMS_BY_TIER.LETTER,
  ...ITEMS_BY_TIER.UNCOMMON,
  ...ITEMS_BY_TIER.RARE.slice(0, 4),
  ...ITEMS_BY_TIER.EPIC.slice(0, 4),
  ...ITEMS_BY_TIER.ELUSIVE.slice(0, 2),
];

/** The mid price of the `i`-th item of a list: rarer items cost more; a letter about $1. */
export const midPrice = (item: Item, i: number) => 100 * 3 ** (item.rarity - 1) + 3 * i;

/**
 * `count` users named `prefix` and a number, each with `money` cents and `units` units of each of `items`, made
 * `workers` at a time; answers their ids.
 */
export async function makeTraders(
  database: Database,
  deps: WorkDeps,
  o: { count: number; prefix: string; money: number; units: number; items: readonly Item[]; workers: number },
): Promise<number[]> {
  const users = (
    await sqlRows<{ id: number }>(
      database.db,
      sql`INSERT INTO users (username, email, badge)
          SELECT ${`${o.prefix}_`} || i, NULL, ${o.prefix.toUpperCase()} || i
          FROM generate_series(1, ${o.count}) i RETURNING id`,
    )
  ).map((r) => Number(r.id));
  const stock = o.items.flatMap((item) => Array.from({ length: o.units }, () => item.itemType));
  await inParallel(users, o.workers, async (id) => {
    await openUserAccounts(database.db, id);
    await transact(deps, async (w) => {
      await creditTopUp(w, id, o.money, `${o.prefix}-${id}`);
      await mintLoot(w, { userId: id, items: stock, openingId: 0 });
    });
  });
  return users;
}
