import type { UserPosition } from '../../../../../common/market';
import type { Offer } from '../../../../../common/api/market';
import { formatMoney } from '../../../../../common/money';
import type { Check } from './forms';

/** Which book an offers popup shows: the sell offers (each with Buy) or the buy offers (each with Sell). */
export type OfferSide = 'sell' | 'buy';

/** The market Buy button is off when nobody sells, when the best price is the user's own, and while a buy runs. */
export function checkMarketBuy(state: {
  bestSo: number | null;
  sellOffer: UserPosition['sellOffer'];
  busy: boolean;
  name: string;
}): Check {
  if (state.bestSo === null) return { ok: false, reason: `Nobody is selling ${state.name}` };
  if (state.sellOffer && state.sellOffer.price === state.bestSo)
    return { ok: false, reason: `You are selling for ${formatMoney(state.sellOffer.price)}` };
  if (state.busy) return { ok: false };
  return { ok: true };
}

/** Units the user owns that no sell offer of theirs holds: what they can sell to a buyer. */
export const freeUnits = (user: UserPosition): number => user.quantity - (user.sellOffer?.quantity ?? 0);

/**
 * Whether the user may take an offer of the popup's list: never their own, and selling to a buyer needs a unit they
 * have not offered already (docs/product.md#market).
 */
export function checkTakeOffer(offer: Offer, side: OfferSide, me: { id: number; user: UserPosition; name: string }) {
  if (offer.userId === me.id) return { ok: false, reason: 'Your offer' } satisfies Check;
  if (side === 'buy' && freeUnits(me.user) < 1)
    return {
      ok: false,
      reason: me.user.quantity < 1 ? `You own no ${me.name}` : 'All yours are on sale',
    } satisfies Check;
  return { ok: true } satisfies Check;
}

/** An offer taken one unit at a time: the row shows one unit fewer, and leaves the list with its last unit. */
export const withoutOneUnit = (offers: readonly Offer[], offerId: number): Offer[] =>
  offers.flatMap((o) => (o.offerId !== offerId ? [o] : o.quantity > 1 ? [{ ...o, quantity: o.quantity - 1 }] : []));
