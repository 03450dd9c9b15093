import { useState } from 'react';
import type { ItemDetails } from '../../../../../common/api/items';
import { newActionKey } from '../../../lib/api';
import { useSellOffer } from '../api/orders';
import { dollarsText, parseDollars, parseQuantity } from '../lib/dollars';
import { failureText } from '../lib/failures';
import { checkSellOffer, defaultSellPrice, defaultSellQuantity, sellQuantityInput } from '../lib/forms';
import { OfferForm } from './OfferForm';

/** The sell offer form (SPEC §5 "Market"): it starts a cent under the market's price, with all owned units but one. */
export function SellOfferForm({ item }: { item: ItemDetails }) {
  const sell = useSellOffer();
  const owned = item.user.quantity;
  const [priceText, setPriceText] = useState(() => dollarsText(defaultSellPrice(item.market.bestSo)));
  const [quantityText, setQuantityText] = useState(() => String(defaultSellQuantity(owned)));
  const [error, setError] = useState<string | undefined>();
  const [done, setDone] = useState<string | undefined>();
  const price = parseDollars(priceText);
  const quantity = parseQuantity(quantityText);
  const check = checkSellOffer({ price, quantity, owned, buyOffer: item.user.buyOffer });

  const submit = async (price: number, quantity: number) => {
    setError(undefined);
    setDone(undefined);
    try {
      await sell.run({ itemType: item.itemType, price, quantity, actionKey: newActionKey() });
      setDone('Your sell offer is on the market.');
    } catch (err) {
      setError(failureText(err));
    }
  };

  return (
    <OfferForm
      title="Create Sell Offer"
      priceText={priceText}
      quantityText={quantityText}
      onPrice={setPriceText}
      onQuantity={(raw) => setQuantityText(sellQuantityInput(raw, owned))}
      check={owned < 1 ? { ok: false, reason: `You own no ${item.name}` } : check}
      busy={sell.isPending}
      onSubmit={(p, q) => void submit(p, q)}
      hint={owned > 0 ? `From 1 to ${Math.min(owned, 999)}: you own ${owned}.` : undefined}
      error={error}
      done={done}
    />
  );
}
