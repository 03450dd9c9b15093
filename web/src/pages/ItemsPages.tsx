import { ItemsBrowser } from '../features/items/components/ItemsBrowser';
import { useMarketLive } from '../features/market/lib/cache';

/** docs/product.md#items: the inventory holds only owned items, the store all of them; both market-live. */
export function MyItemsPage() {
  useMarketLive();
  return <ItemsBrowser key="my-items" view="my-items" />;
}

export function ItemStorePage() {
  useMarketLive();
  return <ItemsBrowser key="item-store" view="item-store" />;
}
