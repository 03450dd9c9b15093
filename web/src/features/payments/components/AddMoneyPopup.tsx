import { useState, type FormEvent } from 'react';
import { formatMoney } from '../../../../../common/money';
import { Field } from '../../../components/ui/Field';
import { Popup } from '../../../components/ui/Popup';
import { cleanDollarInput, dollarsToCents, isBlockedAmountKey, suggestedDollars } from '../../../lib/money-input';
import { closePopup } from '../../../lib/popups';
import { useProfile } from '../../users/api/profile';
import { useTopUpDone } from '../../wallet/api/balance';
import { PAYMENT_TEXTS, payInWindow, type PaymentOutcome } from '../lib/payment-window';

/**
 * Add money by card; opened with `missing` it is the top-up for a shortfall (any 402 answer). A charity tenant shows
 * the charity link popup instead (app/popups/popups.tsx).
 */
export function AddMoneyPopup({ missing }: { missing?: number }) {
  const title = missing ? 'Top up' : 'Add money';
  const [paid, setPaid] = useState(false);
  // A paid top-up is over: the popup shows the result with no pay button, so one more click cannot pay twice.
  if (paid) return <Paid title={title} />;
  return <CardTopUp title={title} missing={missing} onPaid={() => setPaid(true)} />;
}

function Paid({ title }: { title: string }) {
  const balance = useProfile().data?.balance;
  return (
    <Popup title={title}>
      <div className="stack">
        <p className="form-success" role="status">
          {PAYMENT_TEXTS.success}
        </p>
        {balance !== undefined && <p>Your balance is now {formatMoney(balance)}.</p>}
        <button type="button" className="button button--primary" data-autofocus onClick={closePopup}>
          Done
        </button>
      </div>
    </Popup>
  );
}

function CardTopUp({ title, missing, onPaid }: { title: string; missing?: number; onPaid: () => void }) {
  const topUpDone = useTopUpDone();
  const [text, setText] = useState(String(suggestedDollars(missing)));
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<PaymentOutcome | undefined>();
  const cents = dollarsToCents(text);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (cents === undefined || busy) return;
    setBusy(true);
    setOutcome(undefined);
    const result = await payInWindow(cents);
    if (result === 'success') {
      topUpDone();
      onPaid();
      return;
    }
    setOutcome(result);
    setBusy(false);
  };

  return (
    <Popup title={title}>
      <form className="stack" onSubmit={submit} noValidate>
        {missing ? <p className="shortfall">You need {formatMoney(missing)} more for this.</p> : null}
        <Field
          label="Amount in dollars"
          name="amount"
          type="number"
          inputMode="numeric"
          min={1}
          max={999999}
          step={1}
          data-autofocus
          value={text}
          onKeyDown={(e) => {
            if (isBlockedAmountKey(e.key)) e.preventDefault();
          }}
          onChange={(e) => setText(cleanDollarInput(e.target.value))}
          error={text !== '' && cents === undefined ? 'Enter at least $1.' : undefined}
        />
        <p className="muted">You pay in a new tab through our card payment provider.</p>
        {outcome && (
          <p className={outcome === 'cancelled' ? 'muted' : 'form-error'} role="status">
            {PAYMENT_TEXTS[outcome]}
          </p>
        )}
        <button type="submit" className="button button--primary" disabled={cents === undefined || busy}>
          {busy ? 'Waiting for payment...' : `Pay ${cents ? formatMoney(cents) : ''}`.trim()}
        </button>
      </form>
    </Popup>
  );
}
