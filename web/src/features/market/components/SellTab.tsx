import type { ItemDetails } from '../../../../../common/api/items';
import { OffersButton } from './OffersButton';
import { OwnOffer } from './OwnOffer';
import { SellOfferForm } from './SellOfferForm';

/** SELL: the user's sell offer, the form that creates or replaces it, and the buy offers to sell to. */
export function SellTab({ item }: { item: ItemDetails }) {
  return (
    <div className="market-tab">
      <h2>Sell {item.name}</h2>
      {item.user.sellOffer && <OwnOffer itemType={item.itemType} side="sell" offer={item.user.sellOffer} />}
      <SellOfferForm key={item.itemType} item={item} />
      <OffersButton itemType={item.itemType} side="buy" best={item.market.bestBo} />
    </div>
  );
}
