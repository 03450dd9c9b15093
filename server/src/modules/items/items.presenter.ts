import type { ItemDetails } from '../../../../common/api/items';
import type { Item } from '../../../../common/items';
import type { MarketFigures, UserPosition } from '../../../../common/market';

/** One item of the catalogue with its market and the caller's part (docs/product.md#items). */
export function presentItem(item: Item, market: MarketFigures, user: UserPosition): ItemDetails {
  return {
    itemType: item.itemType,
    emoji: item.emoji,
    name: item.name,
    rarity: item.rarity,
    market: { quantity: market.quantity, bestSo: market.bestSo, bestBo: market.bestBo },
    user: { quantity: user.quantity, sellOffer: user.sellOffer, buyOffer: user.buyOffer },
  };
}
