import type { ItemDetails } from '../../../../common/api/items';
import type { Item } from '../../../../common/items';

/** One item of the catalogue with its market and the caller's part (SPEC §3 "Item"). */
export function presentItem(item: Item, market: { quantity: number }, owned: number): ItemDetails {
  return {
    itemType: item.itemType,
    emoji: item.emoji,
    name: item.name,
    rarity: item.rarity,
    // Offers and their best prices come with the market.
    market: { quantity: market.quantity, bestSo: null, bestBo: null },
    user: { quantity: owned, sellOffer: null, buyOffer: null },
  };
}
