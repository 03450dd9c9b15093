import { useState } from 'react';
import type { ItemDetails } from '../../../../../common/api/items';
import { BuyOfferForm } from './BuyOfferForm';
import { MarketBuyButton } from './MarketBuyButton';
import { OffersButton } from './OffersButton';
import { OwnOffer } from './OwnOffer';

/** BUY: one unit at the market price, a buy offer ('Offer Price' shows its form), and the sell offers to buy from. */
export function BuyTab({ item }: { item: ItemDetails }) {
  const [offering, setOffering] = useState(false);
  return (
    <div className="market-tab">
      <h2>Buy {item.name}</h2>
      {item.user.buyOffer && <OwnOffer itemType={item.itemType} side="buy" offer={item.user.buyOffer} />}
      <MarketBuyButton item={item}>
        <button
          type="button"
          className="button"
          aria-expanded={offering}
          aria-controls={offering ? 'buy-offer-form' : undefined}
          onClick={() => setOffering((open) => !open)}
        >
          Offer Price
        </button>
      </MarketBuyButton>
      {offering && (
        <div id="buy-offer-form">
          <BuyOfferForm item={item} onCreated={() => setOffering(false)} />
        </div>
      )}
      <OffersButton itemType={item.itemType} side="sell" best={item.market.bestSo} />
    </div>
  );
}
