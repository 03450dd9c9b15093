import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ItemDetails } from '../../../../../common/api/items';
import type { OrderAnswer } from '../../../../../common/api/market';
import type { MarketItemMessage } from '../../../../../common/market';
import { itemDetailsQuery } from '../../items/api/details';
import { useLiveChannel } from '../../../lib/live';
import { useLoggedIn } from '../../../lib/session';
import type { OfferSide } from './trading';

/*
 * The market's changes, written into the caches the REST calls filled (docs/ARCHITECTURE.md#live-events): the item list
 * of GET /api/items/details (the inventory, the store and the item detail all read it) and the offers lists.
 */

/** Every offers list of an item, whichever side: `offersKey(itemType)` is their common prefix. */
export const offersKey = (itemType: string, side?: OfferSide) =>
  side ? (['market', 'offers', itemType, side] as const) : (['market', 'offers', itemType] as const);
/** An item's trade data; `tradeDataKey()` is every item's. */
export const tradeDataKey = (itemType?: string) =>
  itemType ? (['market', 'trade-data', itemType] as const) : (['market', 'trade-data'] as const);

function patchItem(client: QueryClient, itemType: string, change: (item: ItemDetails) => ItemDetails): void {
  client.setQueryData(itemDetailsQuery.queryKey, (items) =>
    items?.map((item) => (item.itemType === itemType ? change(item) : item)),
  );
}

/** A live `marketItem`: only the fields its Delta flags name changed, so only those are written. */
export function marketItemPatch(item: ItemDetails, m: MarketItemMessage): ItemDetails {
  const market = {
    quantity: m.marketQuantityDelta ? m.marketQuantity : item.market.quantity,
    bestSo: m.bestSoDelta ? m.bestSo : item.market.bestSo,
    bestBo: m.bestBoDelta ? m.bestBo : item.market.bestBo,
  };
  const user = {
    quantity: m.userQuantityDelta && m.userQuantity !== undefined ? m.userQuantity : item.user.quantity,
    sellOffer: m.userSellOfferDelta && m.userSellOffer !== undefined ? m.userSellOffer : item.user.sellOffer,
    buyOffer: m.userBuyOfferDelta && m.userBuyOffer !== undefined ? m.userBuyOffer : item.user.buyOffer,
  };
  return { ...item, market, user };
}

export function applyMarketItem(client: QueryClient, m: MarketItemMessage): void {
  patchItem(client, m.itemType, (item) => marketItemPatch(item, m));
  // The book moved, and may have traded: an open offers popup or graph of this item is fetched again (queries not
  // on screen are only marked stale).
  void client.invalidateQueries({ queryKey: offersKey(m.itemType) });
  void client.invalidateQueries({ queryKey: tradeDataKey(m.itemType) });
}

/** An order's answer: the item's market and the user's side of it (the wallet writes the balance it carries). */
export function applyOrderAnswer(client: QueryClient, answer: OrderAnswer): void {
  patchItem(client, answer.itemType, (item) => ({ ...item, market: answer.market, user: answer.user }));
  void client.invalidateQueries({ queryKey: offersKey(answer.itemType) });
  if (answer.filled > 0) void client.invalidateQueries({ queryKey: tradeDataKey(answer.itemType) });
}

/**
 * Keeps every item's market (and the user's side of it) live while the calling view is mounted. An opening mints
 * items without a market event; it always lowers lootBoxCount, so the list is read again then.
 */
export function useMarketLive(): void {
  const client = useQueryClient();
  const loggedIn = useLoggedIn();
  useLiveChannel(
    'market',
    (message) => {
      if (message.t === 'marketItem') applyMarketItem(client, message.m);
    },
    loggedIn,
  );
  useLiveChannel(
    'lootBoxCount',
    () => void client.invalidateQueries({ queryKey: itemDetailsQuery.queryKey }),
    loggedIn,
  );
}
