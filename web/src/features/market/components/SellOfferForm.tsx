import { useState } from 'react';
import type { ItemDetails } from '../../../../../common/api/items';
import { useSellOffer } from '../api/orders';
import { dollarsText, parseDollars, parseQuantity } from '../lib/dollars';
import { checkSellOffer, defaultSellPrice, defaultSellQuantity, sellQuantityInput } from '../lib/forms';
import { OfferForm } from './OfferForm';

/** The sell offer form (docs/product.md#market): it starts a cent under the market's price, with all owned units but one. */
export function SellOfferForm({ item }: { item: ItemDetails }) {
  const sell = useSellOffer();
  const owned = item.user.quantity;
  const [priceText, setPriceText] = useState(() => dollarsText(defaultSellPrice(item.market.bestSo)));
  const [quantityText, setQuantityText] = useState(() => String(defaultSellQuantity(owned)));
  const check = checkSellOffer({
    price: parseDollars(priceText),
    quantity: parseQuantity(quantityText),
    owned,
    buyOffer: item.user.buyOffer,
  });

  return (
    <OfferForm
      title="Create Sell Offer"
      priceText={priceText}
      quantityText={quantityText}
      onPrice={setPriceText}
      onQuantity={(raw) => setQuantityText(sellQuantityInput(raw, owned))}
      check={owned < 1 ? { ok: false, reason: `You own no ${item.name}` } : check}
      send={(price, quantity) => sell.run({ itemType: item.itemType, price, quantity })}
      hint={owned > 0 ? `From 1 to ${Math.min(owned, 999)}: you own ${owned}.` : undefined}
      doneText="Your sell offer is on the market."
    />
  );
}
