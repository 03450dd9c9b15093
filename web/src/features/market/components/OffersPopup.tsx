import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { Offer } from '../../../../../common/api/market';
import { itemName } from '../../../../../common/items';
import { formatMoney } from '../../../../../common/money';
import { ItemIcon } from '../../../components/ui/ItemIcon';
import { Popup } from '../../../components/ui/Popup';
import { ApiError } from '../../../lib/api';
import { useItemDetails } from '../../items/api/details';
import { useProfile } from '../../users/api/profile';
import { useOffers } from '../api/offers';
import { useBuyFromUser, useSellToUser } from '../api/orders';
import { offersKey } from '../lib/cache';
import { failureText } from '../lib/failures';
import { checkTakeOffer, withoutOneUnit, type OfferSide } from '../lib/trading';
import { OfferRow } from './OfferRow';
import '../market.css';

const TITLES: Record<OfferSide, string> = { sell: 'Sell offers', buy: 'Buy offers' };
const EMPTY: Record<OfferSide, string> = { sell: 'No one is selling this item.', buy: 'No one is buying this item.' };
const MOVED = 'That offer has changed since it was shown: the list is up to date now.';

/** An item's sell offers (each with Buy) or buy offers (each with Sell), best first, kept live while open. */
export function OffersPopup({ itemType, side }: { itemType: string; side: OfferSide }) {
  const client = useQueryClient();
  const { data: offers, isPending, error } = useOffers(itemType, side);
  const { data: items } = useItemDetails();
  const { data: profile } = useProfile();
  const buyFrom = useBuyFromUser();
  const sellTo = useSellToUser();
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | undefined>();
  const item = items?.find((i) => i.itemType === itemType);
  const name = item?.name ?? itemName(itemType);
  const busy = buyFrom.isPending || sellTo.isPending;

  // docs/product.md#market: a list that fails to load shows as empty, and the error is logged.
  useEffect(() => {
    if (error) console.warn('offers failed to load', error);
  }, [error]);

  const take = async (offer: Offer) => {
    setOutcome(undefined);
    const order = { itemType, price: offer.price, userId: offer.userId };
    try {
      if (side === 'sell') await buyFrom.run({ ...order, balance: profile?.balance ?? 0 });
      else await sellTo.run(order);
      client.setQueryData<Offer[]>(offersKey(itemType, side), (list) => list && withoutOneUnit(list, offer.offerId));
      const deal = side === 'sell' ? `Bought 1 ${name} from` : `Sold 1 ${name} to`;
      setOutcome({ ok: true, text: `${deal} ${offer.username} for ${formatMoney(offer.price)}.` });
    } catch (err) {
      const text = failureText(err, MOVED);
      if (text) setOutcome({ ok: false, text });
      if (err instanceof ApiError && err.status === 409)
        void client.invalidateQueries({ queryKey: offersKey(itemType, side) });
    }
  };

  const list = error ? [] : offers;
  return (
    <Popup title={TITLES[side]} wide>
      <p className="offers-popup__item">
        <ItemIcon itemType={itemType} size={32} />
        <strong>{name}</strong>
      </p>
      {isPending ? (
        <p className="loading">Loading...</p>
      ) : !list || list.length === 0 ? (
        <p className="offers-popup__empty">{EMPTY[side]}</p>
      ) : (
        <ul className="offers-popup__list" aria-label={TITLES[side]}>
          {list.map((offer) => (
            <OfferRow
              key={offer.offerId}
              offer={offer}
              side={side}
              busy={busy}
              check={
                profile && item ? checkTakeOffer(offer, side, { id: profile.id, user: item.user, name }) : { ok: false }
              }
              onTake={() => void take(offer)}
            />
          ))}
        </ul>
      )}
      {outcome && (
        <p className={outcome.ok ? 'form-success' : 'form-error'} role={outcome.ok ? 'status' : 'alert'}>
          {outcome.text}
        </p>
      )}
    </Popup>
  );
}
