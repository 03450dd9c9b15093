import { useState } from 'react';
import { formatMoney } from '../../../../../common/money';
import { ApiError } from '../../../lib/api';
import { isBlockedAmountKey } from '../../../lib/money-input';
import { useProfile } from '../../users/api/profile';
import { KEY_PRICE_CENTS, MAX_KEYS_PER_PURCHASE } from '../../../../../common/lootboxes';
import { useBuyKeys } from '../api/lootboxes';
import { KeyIcon } from './KeyIcon';

/** docs/product.md#lootboxes: a key purchase waits at least 500 ms, so the button's state is seen and double clicks land nowhere. */
export const KEY_MIN_WAIT_MS = 500;
export const KEY_FAILED = 'Failed to get key. Please try again.';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The key count typed: a whole number from 1 to 99 (docs/product.md#lootboxes), or undefined. */
export function keyCountOf(text: string): number | undefined {
  if (!/^\d{1,2}$/.test(text)) return undefined;
  const n = Number(text);
  return n >= 1 && n <= MAX_KEYS_PER_PURCHASE ? n : undefined;
}

const keys = (n: number) => `${n} key${n === 1 ? '' : 's'}`;

/** Buying keys, 1 to 99 at $1 each; a short balance opens the top-up popup (the wallet's usePaidAction, on the 402). */
export function KeyShop() {
  const { data: profile } = useProfile();
  const buy = useBuyKeys();
  const [text, setText] = useState('1');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [bought, setBought] = useState<number | undefined>();
  const count = keyCountOf(text);

  const submit = async () => {
    if (count === undefined || busy) return;
    setBusy(true);
    setError(undefined);
    setBought(undefined);
    const [result] = await Promise.allSettled([
      buy.run({ keyCount: count, balance: profile?.balance ?? 0 }),
      wait(KEY_MIN_WAIT_MS),
    ]);
    setBusy(false);
    if (result.status === 'fulfilled') setBought(count);
    // A 402 has opened the top-up popup with the shortfall: that says it better.
    else if (!(result.reason instanceof ApiError && result.reason.status === 402)) setError(KEY_FAILED);
  };

  return (
    <section className="lootbox-card" aria-labelledby="keys-title">
      <h2 id="keys-title">Keys</h2>
      <p className="lootbox-keys__count">
        <KeyIcon /> You have <strong data-testid="key-count">{profile ? keys(profile.keyCount) : '…'}</strong>. A key
        opens one box.
      </p>
      <form
        className="lootbox-keys__form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <div className="field lootbox-keys__field">
          <label htmlFor="key-count">Keys to buy</label>
          <input
            id="key-count"
            name="keyCount"
            inputMode="numeric"
            pattern="[0-9]*"
            maxLength={2}
            value={text}
            aria-invalid={count === undefined || undefined}
            aria-describedby="key-count-hint"
            onKeyDown={(e) => {
              if (isBlockedAmountKey(e.key)) e.preventDefault();
            }}
            onChange={(e) => setText(e.target.value.replace(/\D/g, '').slice(0, 2))}
          />
        </div>
        <button type="submit" className="button button--primary" disabled={count === undefined || busy}>
          {busy
            ? 'Buying...'
            : count === undefined
              ? 'Buy keys'
              : `Buy ${keys(count)} for ${formatMoney(count * KEY_PRICE_CENTS)}`}
        </button>
      </form>
      <p id="key-count-hint" className={count === undefined ? 'field__error' : 'muted lootbox-keys__hint'}>
        {count === undefined ? 'Buy from 1 to 99 keys.' : `$1 a key; half of it goes to your cause.`}
      </p>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {bought !== undefined && !busy && (
        <p className="form-success" role="status">
          Bought {keys(bought)}.
        </p>
      )}
    </section>
  );
}
