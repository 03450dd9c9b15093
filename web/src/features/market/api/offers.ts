import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Offer } from '../../../../../common/api/market';
import { api } from '../../../lib/api';
import { offersKey } from '../lib/cache';
import type { OfferSide } from '../lib/trading';

/** GET /api/market/sell-offers/{itemType} or buy-offers/{itemType}: best price first, then oldest. */
export const fetchOffers = (itemType: string, side: OfferSide): Promise<Offer[]> =>
  api<Offer[]>(`/api/market/${side}-offers/${encodeURIComponent(itemType)}`);

/** One side of an item's book; a live change of the item refetches it while it is shown (lib/cache.ts). */
export const offersQuery = (itemType: string, side: OfferSide) =>
  queryOptions({
    queryKey: offersKey(itemType, side),
    queryFn: () => fetchOffers(itemType, side),
    staleTime: 10_000,
    retry: false,
  });

export const useOffers = (itemType: string, side: OfferSide) => useQuery(offersQuery(itemType, side));
