import { useState } from 'react';
import type { StandingOffer } from '../../../../../common/market';
import { formatMoney } from '../../../../../common/money';
import { RelativeTime } from '../../../components/ui/RelativeTime';
import { useProfile } from '../../users/api/profile';
import { useBuyOffer, useSellOffer } from '../api/orders';
import { failureText } from '../lib/failures';
import type { OfferSide } from '../lib/trading';

const TITLES: Record<OfferSide, string> = { sell: 'Your sell offer', buy: 'Your buy offer' };

/** The user's own offer on one side, with Cancel (price 0 and quantity 0; the buy side carries the balance). */
export function OwnOffer({ itemType, side, offer }: { itemType: string; side: OfferSide; offer: StandingOffer }) {
  const sell = useSellOffer();
  const buy = useBuyOffer();
  const { data: profile } = useProfile();
  const [error, setError] = useState<string | undefined>();
  const busy = sell.isPending || buy.isPending;

  const cancel = async () => {
    setError(undefined);
    const body = { itemType, price: 0, quantity: 0 };
    try {
      if (side === 'sell') await sell.run(body);
      else await buy.run({ ...body, balance: profile?.balance ?? 0 });
    } catch (err) {
      setError(failureText(err));
    }
  };

  return (
    <section className="own-offer" aria-label={TITLES[side]} data-testid={`own-${side}-offer`}>
      <div className="own-offer__text">
        <strong>{TITLES[side]}</strong>
        <span>
          {offer.quantity} × {formatMoney(offer.price)}
        </span>
        <span className="muted">
          <RelativeTime at={offer.since} />
        </span>
      </div>
      <button type="button" className="button" disabled={busy} onClick={() => void cancel()}>
        {busy ? 'Cancelling...' : 'Cancel'}
      </button>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
