import type { ItemDetails } from '../../../../common/api/items';
import { ITEMS } from '../../../../common/items';
import type { AppContext } from '../../context';
import type { Executor } from '../../db/connection';
import { presentItem } from './items.presenter';
import * as items from './items.repository';

/** Every item, in catalogue order, with its market and what the user owns of it. */
export async function itemDetails(ctx: AppContext, userId: number): Promise<ItemDetails[]> {
  const [owned, onSale] = await Promise.all([items.inventoryOf(ctx.db, userId), items.unitsOnSale(ctx.db)]);
  return ITEMS.map((item) =>
    presentItem(item, { quantity: onSale.get(item.itemType) ?? 0 }, owned.get(item.itemType) ?? 0),
  );
}

/** Elusive units on sale right now: the lootbox odds fall as they rise. */
export function elusiveUnitsOnSale(exec: Executor): Promise<number> {
  return items.elusiveUnitsOnSale(exec);
}
