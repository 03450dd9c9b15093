import { useState } from 'react';
import type { ItemDetails } from '../../../../../common/api/items';
import { newActionKey } from '../../../lib/api';
import { useProfile } from '../../users/api/profile';
import { useBuyOffer } from '../api/orders';
import { cleanQuantityInput, dollarsText, parseDollars, parseQuantity } from '../lib/dollars';
import { failureText } from '../lib/failures';
import { checkBuyOffer, defaultBuyOffer } from '../lib/forms';
import { OfferForm } from './OfferForm';

/** The Create Buy Offer form (SPEC §5 "Market"); `onCreated` runs after the server took the offer. */
export function BuyOfferForm({ item, onCreated }: { item: ItemDetails; onCreated: () => void }) {
  const buy = useBuyOffer();
  const { data: profile } = useProfile();
  const [first] = useState(() => defaultBuyOffer(item.market, item.user.buyOffer));
  const [priceText, setPriceText] = useState(dollarsText(first.price));
  const [quantityText, setQuantityText] = useState(String(first.quantity));
  const [error, setError] = useState<string | undefined>();
  const price = parseDollars(priceText);
  const quantity = parseQuantity(quantityText);
  const check = checkBuyOffer({ price, quantity, sellOffer: item.user.sellOffer });

  const submit = async (price: number, quantity: number) => {
    setError(undefined);
    try {
      await buy.run({
        itemType: item.itemType,
        price,
        quantity,
        balance: profile?.balance ?? 0,
        actionKey: newActionKey(),
      });
      onCreated();
    } catch (err) {
      setError(failureText(err));
    }
  };

  return (
    <OfferForm
      title="Create Buy Offer"
      priceText={priceText}
      quantityText={quantityText}
      onPrice={setPriceText}
      onQuantity={(raw) => setQuantityText(cleanQuantityInput(raw))}
      check={check}
      busy={buy.isPending}
      onSubmit={(p, q) => void submit(p, q)}
      hint="The money is held until the offer is filled or cancelled."
      error={error}
    />
  );
}
