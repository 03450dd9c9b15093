import { sql } from 'drizzle-orm';
import { sqlRows, type Executor, type Columns } from '../../db/connection';
import type { inventories } from '../../db/core.tables';

/** What a user owns, per item (units held by their sell offer included). */
export async function inventoryOf(exec: Executor, userId: number): Promise<Map<string, number>> {
  const found = await sqlRows(
    exec,
    sql<
      Columns<typeof inventories, 'item_type' | 'quantity'>
    >`SELECT item_type, quantity FROM inventories WHERE user_id = ${userId} AND quantity > 0`,
  );
  return new Map(found.map((r) => [r.item_type, r.quantity]));
}

/** Units of elusive items on sale, which lower the elusive lootbox weight (docs/product.md#lootboxes). */
export async function elusiveUnitsOnSale(exec: Executor): Promise<number> {
  const [row] = await sqlRows(
    exec,
    sql<
      Columns<typeof inventories, 'held'>
    >`SELECT coalesce(sum(held), 0)::int AS held FROM inventories WHERE item_type LIKE 'ELUSIVE\\_%' AND held > 0`,
  );
  return row?.held ?? 0;
}
