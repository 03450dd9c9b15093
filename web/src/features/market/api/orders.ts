import { useQueryClient } from '@tanstack/react-query';
import type {
  BuyFromUserBody,
  BuyOfferBody,
  MarketBuyBody,
  OrderAnswer,
  SellOfferBody,
  SellToUserBody,
} from '../../../../../common/api/market';
import { useAction } from '../../../hooks/useAction';
import { api } from '../../../lib/api';
import { applyOrderAnswer } from '../lib/cache';

/** One key per user action, so a retried click never trades twice (docs/product.md#idempotency). */
export interface Keyed {
  actionKey: string;
}

const order =
  <B extends object>(path: string) =>
  ({ actionKey, ...body }: B & Keyed): Promise<OrderAnswer> =>
    api<OrderAnswer>(`/api/market/${path}`, { body, idempotencyKey: actionKey });

/** Creates or replaces the user's sell offer; price 0 and quantity 0 cancel it. */
export const placeSellOffer = order<SellOfferBody>('generic-sell-offer');
/** Creates or replaces the user's buy offer (its money is held until it fills); price 0 and quantity 0 cancel it. */
export const placeBuyOffer = order<BuyOfferBody>('generic-buy-offer');
/** One unit from the best other seller, at most `requestedPrice`: 409 when it asks more, 404 when nobody else sells. */
export const marketBuy = order<MarketBuyBody>('buy');
/** One unit of that user's sell offer, at its current price (409 when it is gone or moved). */
export const buyFromUser = order<BuyFromUserBody>('buy-from-user');
/** One unit, not already offered, to that user's buy offer at its current price. */
export const sellToUser = order<SellToUserBody>('sell-to-user');

/** Runs an order and writes its answer (market, position, balance) into the caches. */
function useOrder<B extends object>(call: (input: B & Keyed) => Promise<OrderAnswer>) {
  const client = useQueryClient();
  return useAction(async (input: B & Keyed) => {
    const answer = await call(input);
    applyOrderAnswer(client, answer);
    return answer;
  });
}

export const useSellOffer = () => useOrder(placeSellOffer);
export const useBuyOffer = () => useOrder(placeBuyOffer);
export const useMarketBuy = () => useOrder(marketBuy);
export const useBuyFromUser = () => useOrder(buyFromUser);
export const useSellToUser = () => useOrder(sellToUser);
