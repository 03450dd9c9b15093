import { useState } from 'react';
import type { ItemDetails } from '../../../../../common/api/items';
import { useProfile } from '../../users/api/profile';
import { useBuyOffer } from '../api/orders';
import { cleanQuantityInput, dollarsText, parseDollars, parseQuantity } from '../lib/dollars';
import { checkBuyOffer, defaultBuyOffer } from '../lib/forms';
import { OfferForm } from './OfferForm';

/** The Create Buy Offer form (docs/product.md#market); `onCreated` runs after the server took the offer. */
export function BuyOfferForm({ item, onCreated }: { item: ItemDetails; onCreated: () => void }) {
  const buy = useBuyOffer();
  const { data: profile } = useProfile();
  const [first] = useState(() => defaultBuyOffer(item.market, item.user.buyOffer));
  const [priceText, setPriceText] = useState(dollarsText(first.price));
  const [quantityText, setQuantityText] = useState(String(first.quantity));
  const check = checkBuyOffer({
    price: parseDollars(priceText),
    quantity: parseQuantity(quantityText),
    sellOffer: item.user.sellOffer,
  });

  const send = async (price: number, quantity: number) => {
    const balance = profile?.balance ?? 0;
    await buy.run({ itemType: item.itemType, price, quantity, balance });
    onCreated();
  };

  return (
    <OfferForm
      title="Create Buy Offer"
      priceText={priceText}
      quantityText={quantityText}
      onPrice={setPriceText}
      onQuantity={(raw) => setQuantityText(cleanQuantityInput(raw))}
      check={check}
      send={send}
      hint="The money is held until the offer is filled or cancelled."
    />
  );
}
