import { useId, type ReactNode } from 'react';
import { formatMoney } from '../../../../../common/money';
import { Field } from '../../../components/ui/Field';
import type { Check } from '../lib/forms';
import { cleanPriceInput, parseDollars, parseQuantity } from '../lib/dollars';

export interface OfferFormProps {
  /** The form's accessible name: 'Create Sell Offer', 'Create Buy Offer'. */
  title: string;
  priceText: string;
  quantityText: string;
  onPrice: (text: string) => void;
  /** Gets the raw text: each form cleans (and the sell form clamps) it its own way. */
  onQuantity: (raw: string) => void;
  check: Check;
  busy: boolean;
  onSubmit: (price: number, quantity: number) => void;
  /** A line under the fields: what the quantity may be. */
  hint?: ReactNode;
  error?: string;
  done?: string;
}

/** A price in dollars and a quantity, the total, and the submit button; Enter in either field submits. */
export function OfferForm(props: OfferFormProps) {
  const { title, priceText, quantityText, check, busy } = props;
  const reasonId = useId();
  const price = parseDollars(priceText);
  const quantity = parseQuantity(quantityText);
  const total = price !== undefined && quantity !== undefined ? price * quantity : undefined;
  const disabled = !check.ok || busy;
  return (
    <form
      className="offer-form"
      aria-label={title}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!disabled && price !== undefined && quantity !== undefined) props.onSubmit(price, quantity);
      }}
    >
      <div className="offer-form__fields">
        <Field
          label="Price ($)"
          name="price"
          inputMode="decimal"
          autoComplete="off"
          value={priceText}
          aria-invalid={price === undefined || undefined}
          onChange={(e) => props.onPrice(cleanPriceInput(e.target.value))}
        />
        <Field
          label="Quantity"
          name="quantity"
          inputMode="numeric"
          autoComplete="off"
          value={quantityText}
          aria-invalid={quantity === undefined || undefined}
          onChange={(e) => props.onQuantity(e.target.value)}
        />
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
      {props.error && (
        <p className="form-error" role="alert">
          {props.error}
        </p>
      )}
      {props.done && !busy && (
        <p className="form-success" role="status">
          {props.done}
        </p>
      )}
    </form>
  );
}
