import { ITEMS, type Item } from '../../../../common/items';
import type { MarketFigures, UserPosition } from '../../../../common/market';
import type { AppContext } from '../../context';
import type { Executor } from '../../db/connection';
import * as items from './items.repository';
import { marketFigures, offersOfUser } from '../market/market.service';

/** An item of the catalogue with its market and the user's part in it (the presenter's ItemDetails). */
export interface ItemStanding {
  item: Item;
  market: MarketFigures;
  user: UserPosition;
}

/** Every item, in catalogue order, with its market and what the user owns of it. */
export async function itemDetails(ctx: AppContext, userId: number): Promise<ItemStanding[]> {
  const [owned, figures, mine] = await Promise.all([
    items.inventoryOf(ctx.reads.current(), userId),
    marketFigures(ctx),
    offersOfUser(ctx, userId),
  ]);
  return ITEMS.map((item) => ({
    item,
    market: figures.get(item.itemType) ?? NO_MARKET,
    user: { quantity: owned.get(item.itemType) ?? 0, ...(mine.get(item.itemType) ?? NO_OFFERS) },
  }));
}

const NO_MARKET = { quantity: 0, bestSo: null, bestBo: null };
const NO_OFFERS = { sellOffer: null, buyOffer: null };

/** Elusive units on sale right now: the lootbox odds fall as they rise. */
export function elusiveUnitsOnSale(exec: Executor): Promise<number> {
  return items.elusiveUnitsOnSale(exec);
}

/** What a user owns, per item code (units held by their sell offer included): what they may write and react with. */
export function ownedItems(exec: Executor, userId: number): Promise<Map<string, number>> {
  return items.inventoryOf(exec, userId);
}
