import { DEFAULT_SELL_PRICE, MAX_OFFER_QUANTITY, MAX_PRICE, MIN_PRICE } from '../../../../../common/market';
import type { MarketFigures, StandingOffer } from '../../../../../common/market';
import { formatMoney } from '../../../../../common/money';
import { cleanQuantityInput } from './dollars';

/*
 * The offer forms' rules (docs/product.md#market): their first values and whether they may be sent. `reason` is the text
 * the form shows when it is disabled for a reason the user may not see; a field that is not a number needs none.
 */

export interface Check {
  ok: boolean;
  reason?: string;
}

const OK: Check = { ok: true };
const NOT_A_NUMBER: Check = { ok: false };
const TOO_DEAR: Check = { ok: false, reason: `The price is at most ${formatMoney(MAX_PRICE)}` };

/** The sell price first offered: a cent under the market's sell price, or $1 when nobody sells; never under 1¢. */
export const defaultSellPrice = (bestSo: number | null): number =>
  bestSo === null ? DEFAULT_SELL_PRICE : Math.max(MIN_PRICE, bestSo - 1);

/** Sell quantities run from 1 to what the user owns (the units of their current sell offer included). */
export const clampSellQuantity = (quantity: number, owned: number): number =>
  Math.max(1, Math.min(quantity, owned, MAX_OFFER_QUANTITY));

/** The sell quantity first offered: all owned but one, at least 1. */
export const defaultSellQuantity = (owned: number): number => clampSellQuantity(owned - 1, owned);

/** The sell quantity field after an edit: digits only, held between 1 and what is owned; emptied, it stays empty. */
export function sellQuantityInput(raw: string, owned: number): string {
  const text = cleanQuantityInput(raw);
  return text === '' ? '' : String(clampSellQuantity(Number(text), owned));
}

/** Whether a sell offer may be sent: a total of at least 1¢, and a price above the user's own buy offer. */
export function checkSellOffer(form: {
  price: number | undefined;
  quantity: number | undefined;
  owned: number;
  buyOffer: StandingOffer | null;
}): Check {
  const { price, quantity, owned, buyOffer } = form;
  if (price === undefined || quantity === undefined) return NOT_A_NUMBER;
  if (owned < 1 || price * quantity < 1 || quantity < 1 || quantity > owned) return { ok: false };
  if (price > MAX_PRICE) return TOO_DEAR;
  if (buyOffer && price <= buyOffer.price)
    return { ok: false, reason: `You are buying for ${formatMoney(buyOffer.price)}` };
  return OK;
}

/**
 * The buy offer first offered: the user's own when they have one, else a cent over the best buy offer, else a cent
 * under the best sell offer (so it waits rather than buys at once; the Buy button is for that), else $1.
 */
export function defaultBuyOffer(market: MarketFigures, own: StandingOffer | null): { price: number; quantity: number } {
  if (own) return { price: own.price, quantity: own.quantity };
  const price =
    market.bestBo !== null
      ? market.bestBo + 1
      : market.bestSo !== null
        ? Math.max(MIN_PRICE, market.bestSo - 1)
        : DEFAULT_SELL_PRICE;
  return { price: Math.min(price, MAX_PRICE), quantity: 1 };
}

/** Whether a buy offer may be sent: at least 1¢ for at least one unit, under the user's own sell price. */
export function checkBuyOffer(form: {
  price: number | undefined;
  quantity: number | undefined;
  sellOffer: StandingOffer | null;
}): Check {
  const { price, quantity, sellOffer } = form;
  if (price === undefined || quantity === undefined) return NOT_A_NUMBER;
  if (price < MIN_PRICE || quantity < 1 || quantity > MAX_OFFER_QUANTITY) return { ok: false };
  if (price > MAX_PRICE) return TOO_DEAR;
  if (sellOffer && price >= sellOffer.price)
    return { ok: false, reason: `You are selling for ${formatMoney(sellOffer.price)}` };
  return OK;
}
