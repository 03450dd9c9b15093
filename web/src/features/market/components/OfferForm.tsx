import { useId, useState, type ReactNode } from 'react';
import { formatMoney } from '../../../../../common/money';
import { Field } from '../../../components/ui/Field';
import type { Check } from '../lib/forms';
import { cleanPriceInput, parseDollars, parseQuantity } from '../lib/dollars';
import { failureText } from '../lib/failures';

export interface OfferFormProps {
  /** The form's accessible name and its button: 'Create Sell Offer', 'Create Buy Offer'. */
  title: string;
  priceText: string;
  quantityText: string;
  onPrice: (text: string) => void;
  /** Gets the raw text: each form cleans (and the sell form clamps) it its own way. */
  onQuantity: (raw: string) => void;
  check: Check;
  /** Sends the offer; a failure is shown (or, for a 402, left to the top-up popup). */
  send: (price: number, quantity: number) => Promise<unknown>;
  /** A line under the fields. */
  hint?: ReactNode;
  /** What the form says once the offer is sent. */
  doneText?: string;
}

/** A price in dollars and a quantity, the total, and the submit button; Enter in either field submits. */
export function OfferForm(props: OfferFormProps) {
  const { title, priceText, quantityText, check } = props;
  const reasonId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [done, setDone] = useState(false);
  const price = parseDollars(priceText);
  const quantity = parseQuantity(quantityText);
  const total = price !== undefined && quantity !== undefined ? price * quantity : undefined;
  const disabled = !check.ok || busy;

  const submit = async () => {
    if (disabled || price === undefined || quantity === undefined) return;
    setBusy(true);
    setError(undefined);
    setDone(false);
    try {
      await props.send(price, quantity);
      setDone(true);
    } catch (err) {
      setError(failureText(err));
    } finally {
      setBusy(false);
    }
  };

  const fields = [
    { label: 'Price ($)', name: 'price', inputMode: 'decimal', value: priceText, valid: price !== undefined },
    { label: 'Quantity', name: 'quantity', inputMode: 'numeric', value: quantityText, valid: quantity !== undefined },
  ] as const;
  const change = (name: 'price' | 'quantity', text: string) =>
    name === 'price' ? props.onPrice(cleanPriceInput(text)) : props.onQuantity(text);

  return (
    <form
      className="offer-form"
      aria-label={title}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <div className="offer-form__fields">
        {fields.map((f) => (
          <Field
            key={f.name}
            label={f.label}
            name={f.name}
            inputMode={f.inputMode}
            autoComplete="off"
            value={f.value}
            aria-invalid={!f.valid || undefined}
            onChange={(e) => change(f.name, e.target.value)}
          />
        ))}
      </div>
      {props.hint && <p className="muted offer-form__hint">{props.hint}</p>}
      <p className="offer-form__total">
        Total: <strong data-testid="offer-total">{total === undefined ? '—' : formatMoney(total)}</strong>
      </p>
      {check.reason && (
        <p id={reasonId} className="offer-form__reason" role="status">
          {check.reason}
        </p>
      )}
      <button
        type="submit"
        className="button button--primary"
        disabled={disabled}
        aria-describedby={check.reason ? reasonId : undefined}
      >
        {busy ? 'Sending...' : title}
      </button>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {done && props.doneText && (
        <p className="form-success" role="status">
          {props.doneText}
        </p>
      )}
    </form>
  );
}
