import type { ItemDetails } from '../../../../../common/api/items';
import { TIERS, TIER_STYLE } from '../../../../../common/items';

/** Where an item list is shown: the inventory holds what the user owns, the store everything. */
export type ItemsView = 'my-items' | 'item-store';

/** docs/product.md#items: the user's quantity, market quantity, buy offers, sell offers, alphabet. */
export type SortField = 'owned' | 'market' | 'buyOffer' | 'sellOffer' | 'alphabet';
export type Direction = 'asc' | 'desc';
export interface Sort {
  field: SortField;
  direction: Direction;
}

export const SORT_FIELDS: { field: SortField; label: string }[] = [
  { field: 'owned', label: 'Owned' },
  { field: 'market', label: 'On market' },
  { field: 'buyOffer', label: 'Buy offer' },
  { field: 'sellOffer', label: 'Sell offer' },
  { field: 'alphabet', label: 'Alphabet' },
];

/** The value an item is sorted by; null (no offer) sorts after every price, whichever the direction. */
function valueOf(item: ItemDetails, field: SortField): number | string | null {
  switch (field) {
    case 'owned':
      return item.user.quantity;
    case 'market':
      return item.market.quantity;
    case 'buyOffer':
      return item.market.bestBo;
    case 'sellOffer':
      return item.market.bestSo;
    case 'alphabet':
      return item.name;
  }
}

const byName = (a: ItemDetails, b: ItemDetails) =>
  a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.itemType.localeCompare(b.itemType);
/** Rarer first. */
const byRarity = (a: ItemDetails, b: ItemDetails) => b.rarity - a.rarity;
const owned = (item: ItemDetails) => item.user.quantity > 0;

function compareValues(a: number | string | null, b: number | string | null, direction: Direction): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  const order =
    typeof a === 'string' || typeof b === 'string'
      ? String(a).localeCompare(String(b), 'en', { sensitivity: 'base' })
      : a - b;
  return direction === 'asc' ? order : -order;
}

/**
 * With a sort: by its field, ties broken by rarity (rarer first), then by name. Without one (docs/product.md#items): the store puts
 * owned items last and the inventory rare items first, each breaking ties by name.
 */
export function sortItems(items: readonly ItemDetails[], sort: Sort | null, view: ItemsView): ItemDetails[] {
  const compare = sort
    ? (a: ItemDetails, b: ItemDetails) =>
        compareValues(valueOf(a, sort.field), valueOf(b, sort.field), sort.direction) || byRarity(a, b) || byName(a, b)
    : view === 'item-store'
      ? (a: ItemDetails, b: ItemDetails) => Number(owned(a)) - Number(owned(b)) || byName(a, b)
      : (a: ItemDetails, b: ItemDetails) => byRarity(a, b) || byName(a, b);
  return [...items].sort(compare);
}

/** The search box matches an item's name, its emoji or its rarity's name, ignoring case and surrounding spaces. */
export function matchesSearch(item: ItemDetails, query: string): boolean {
  const q = query.trim().toLocaleLowerCase('en');
  if (!q) return true;
  const tier = TIERS[item.rarity - 1];
  return (
    item.name.toLocaleLowerCase('en').includes(q) ||
    item.emoji === query.trim() ||
    (tier !== undefined && TIER_STYLE[tier].label.toLocaleLowerCase('en') === q)
  );
}

/** The list a page shows: owned items only in the inventory, then the search, then the order. */
export function visibleItems(
  items: readonly ItemDetails[],
  view: ItemsView,
  query: string,
  sort: Sort | null,
): ItemDetails[] {
  const kept = items.filter((i) => (view === 'item-store' || owned(i)) && matchesSearch(i, query));
  return sortItems(kept, sort, view);
}

/** The item detail's path for an item tapped on `view` (docs/product.md#item-detail: its tab follows where it was opened from). */
export const detailPath = (itemType: string, view: ItemsView) =>
  `/items-detail/${encodeURIComponent(itemType)}/${view}`;

/** The sort kept in the address (`?sort=alphabet-desc`), so Back from an item's detail finds the list as it was. */
export function parseSort(param: string | null): Sort | null {
  const m = /^(owned|market|buyOffer|sellOffer|alphabet)-(asc|desc)$/.exec(param ?? '');
  return m ? { field: m[1] as SortField, direction: m[2] as Direction } : null;
}

export const sortParam = (sort: Sort): string => `${sort.field}-${sort.direction}`;
