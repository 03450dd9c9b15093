/**
 * How cents are shown (docs/product.md#money): dollars with thousands separators, no decimals when whole. The balance
 * shows cents only when there are some; a few places always show two decimals.
 */
const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const twoDecimals = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export interface MoneyFormat {
  /** Always show two decimals ('$5.00'); by default they show only when the amount has cents. */
  decimals?: 'auto' | 'always';
}

export function formatMoney(cents: number, opts: MoneyFormat = {}): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(cents));
  const dollars = abs / 100;
  const text = opts.decimals === 'always' || abs % 100 !== 0 ? twoDecimals.format(dollars) : whole.format(dollars);
  return `${sign}$${text}`;
}

/** Amounts under a dollar read better in cents ('15¢'), as in price hints. */
export function formatPrice(cents: number): string {
  return Math.abs(cents) < 100 ? `${cents}¢` : formatMoney(cents);
}
