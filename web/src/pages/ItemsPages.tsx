import { ItemsBrowser } from '../features/items/components/ItemsBrowser';

/** SPEC §2 "Inventory and store": the inventory holds only owned items, the store all of them. */
export function MyItemsPage() {
  return <ItemsBrowser key="my-items" view="my-items" />;
}

export function ItemStorePage() {
  return <ItemsBrowser key="item-store" view="item-store" />;
}
