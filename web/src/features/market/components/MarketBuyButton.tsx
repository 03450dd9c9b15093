import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { ItemDetails } from '../../../../../common/api/items';
import type { PriceMoved } from '../../../../../common/api/market';
import { formatMoney } from '../../../../../common/money';
import { ApiError } from '../../../lib/api';
import { itemDetailsQuery } from '../../items/api/details';
import { useProfile } from '../../users/api/profile';
import { useMarketBuy } from '../api/orders';
import { failureText } from '../lib/failures';
import { checkMarketBuy } from '../lib/trading';

/** docs/product.md#market: the in-progress label stays about 300 ms, so a quick buy is still seen to happen. */
export const BUY_LABEL_MS = 300;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a refused buy says: the best other price moved (409) or nobody else sells (404). */
function refusal(err: unknown, name: string): string | undefined {
  if (err instanceof ApiError && err.status === 409) {
    const bestSo = (err.body as Partial<PriceMoved> | undefined)?.bestSo;
    return typeof bestSo === 'number' ? `The price is now ${formatMoney(bestSo)}` : `Nobody else is selling ${name}`;
  }
  if (err instanceof ApiError && err.status === 404) return `Nobody else is selling ${name}`;
  return failureText(err);
}

/** Buys one unit at the market's sell price, the best other seller's; `children` sit beside the button. */
export function MarketBuyButton({ item, children }: { item: ItemDetails; children?: ReactNode }) {
  const client = useQueryClient();
  const buy = useMarketBuy();
  const { data: profile } = useProfile();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [done, setDone] = useState<string | undefined>();
  const bestSo = item.market.bestSo;
  const check = checkMarketBuy({ bestSo, sellOffer: item.user.sellOffer, busy, name: item.name });

  const run = async () => {
    if (!check.ok || bestSo === null) return;
    setBusy(true);
    setError(undefined);
    setDone(undefined);
    const [result] = await Promise.allSettled([
      buy.run({
        itemType: item.itemType,
        requestedPrice: bestSo,
        balance: profile?.balance ?? 0,
      }),
      wait(BUY_LABEL_MS),
    ]);
    setBusy(false);
    if (result.status === 'fulfilled') {
      setDone(`Bought 1 ${item.name}.`);
      return;
    }
    setError(refusal(result.reason, item.name));
    // The book is not what this screen showed: read it again.
    if (result.reason instanceof ApiError && [404, 409].includes(result.reason.status))
      void client.invalidateQueries({ queryKey: itemDetailsQuery.queryKey });
  };

  return (
    <div className="market-buy">
      <div className="market-buy__row">
        {/* A disabled button gets no pointer events: the tip sits on its wrapper. */}
        <span className="market-buy__tip" data-tip={check.reason} tabIndex={check.reason ? 0 : undefined}>
          <button
            type="button"
            className="button button--primary market-buy__button"
            disabled={!check.ok}
            onClick={() => void run()}
          >
            {busy ? 'Buying...' : bestSo === null ? 'Buy' : `Buy for ${formatMoney(bestSo)}`}
          </button>
        </span>
        {children}
      </div>
      {check.reason && <p className="muted market-buy__reason">{check.reason}</p>}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {done && !busy && (
        <p className="form-success" role="status">
          {done}
        </p>
      )}
    </div>
  );
}
