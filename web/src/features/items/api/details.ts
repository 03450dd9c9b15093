import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ItemDetails } from '../../../../../common/api/items';
import { api } from '../../../lib/api';
import { useLoggedIn } from '../../../lib/session';

export const fetchItemDetails = (): Promise<ItemDetails[]> => api<ItemDetails[]>('/api/items/details');

/** Every item of the catalogue with its market and what the signed-in user has of it (GET /api/items/details). */
export const itemDetailsQuery = queryOptions({
  queryKey: ['items', 'details'] as const,
  queryFn: fetchItemDetails,
  staleTime: 30_000,
  retry: (count, err) => count < 2 && !(err instanceof Error && 'status' in err),
});

/** Signed in only: the call answers 401 to a visitor. */
export const useItemDetails = () => useQuery({ ...itemDetailsQuery, enabled: useLoggedIn() });

/** Units of elusive items on sale: what the elusive chance falls with (docs/product.md#lootboxes). */
export const elusiveUnitsOnSale = (items: readonly ItemDetails[]): number =>
  items.reduce((sum, item) => sum + (item.rarity === 5 ? item.market.quantity : 0), 0);
