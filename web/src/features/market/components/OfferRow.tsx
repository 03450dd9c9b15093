import type { Offer } from '../../../../../common/api/market';
import { formatMoney } from '../../../../../common/money';
import { RelativeTime } from '../../../components/ui/RelativeTime';
import { Link } from '../../../lib/router';
import type { Check } from '../lib/forms';
import type { OfferSide } from '../lib/trading';

/** A sell offer is bought from, a buy offer sold to. */
const ACTIONS: Record<OfferSide, string> = { sell: 'Buy', buy: 'Sell' };
const names: Record<OfferSide, (o: Offer) => string> = {
  sell: (o) => `Buy from ${o.username} for ${formatMoney(o.price)}`,
  buy: (o) => `Sell to ${o.username} for ${formatMoney(o.price)}`,
};

/** One offer of the popup: who, how many, at what price, since when, and Buy or Sell when the user may take it. */
export function OfferRow(props: { offer: Offer; side: OfferSide; check: Check; busy: boolean; onTake: () => void }) {
  const { offer, side, check, busy } = props;
  return (
    <li className="offer-row" data-testid="offer-row" data-user={offer.username}>
      <Link to={`/profile/${offer.userId}`} className="offer-row__user">
        {offer.username}
      </Link>
      <span className="offer-row__count" title="Units">
        {offer.quantity} ×
      </span>
      <strong className="offer-row__price">{formatMoney(offer.price)}</strong>
      <span className="offer-row__since muted">
        <RelativeTime at={offer.since} />
      </span>
      {check.ok ? (
        <button
          type="button"
          className="button button--primary offer-row__action"
          disabled={busy}
          aria-label={names[side](offer)}
          onClick={props.onTake}
        >
          {ACTIONS[side]}
        </button>
      ) : (
        <span className="offer-row__note muted">{check.reason}</span>
      )}
    </li>
  );
}
