import { formatMoney } from '../../../../../common/money';
import { openPopup } from '../../../lib/popups';
import type { OfferSide } from '../lib/trading';

const LABELS: Record<OfferSide, string> = { sell: 'Sell offers', buy: 'Buy offers' };
const BEST: Record<OfferSide, string> = { sell: 'Best sell offer', buy: 'Best buy offer' };

/** 'Sell offers' or 'Buy offers': opens that side's popup, with the side's best price beside it. */
export function OffersButton({ itemType, side, best }: { itemType: string; side: OfferSide; best: number | null }) {
  return (
    <div className="offers-button">
      <span className="muted">
        {BEST[side]}: <strong data-testid={`best-${side}`}>{best === null ? 'none' : formatMoney(best)}</strong>
      </span>
      <button type="button" className="button" onClick={() => openPopup({ kind: 'offers', itemType, side })}>
        {LABELS[side]}
      </button>
    </div>
  );
}
