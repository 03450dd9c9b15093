import { MAX_OFFER_QUANTITY } from '../../../../../common/market';

/*
 * The market forms take prices in dollars (docs/product.md#market) and quantities in whole units. The text a
 * field holds is kept as typed; these read it.
 */

/** Dollars with at most six digits before the point and two after it; a comma counts as the point. */
const DOLLARS = /^(\d{0,6})(?:[.,](\d{0,2}))?$/;

/** What a price field keeps of what was typed: digits and one point (a comma becomes one), two decimals at most. */
export function cleanPriceInput(raw: string): string {
  const text = raw.replace(/,/g, '.').replace(/[^\d.]/g, '');
  const point = text.indexOf('.');
  if (point < 0) return text.slice(0, 6);
  return `${text.slice(0, point).slice(0, 6)}.${text
    .slice(point + 1)
    .replace(/\./g, '')
    .slice(0, 2)}`;
}

/** The cents a price field's text stands for, or undefined when it is not a number ('', '.', 'abc'). */
export function parseDollars(text: string): number | undefined {
  const m = DOLLARS.exec(text.trim());
  if (!m || (m[1] === '' && (m[2] ?? '') === '')) return undefined;
  return Number(m[1] || '0') * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** A price as a field shows it: '1', '0.99', '12.50'. */
export function dollarsText(cents: number): string {
  const whole = Math.floor(cents / 100);
  const rest = cents % 100;
  return rest === 0 ? String(whole) : `${whole}.${String(rest).padStart(2, '0')}`;
}

/** What a quantity field keeps: digits only, as many as the largest quantity has. */
export const cleanQuantityInput = (raw: string): string =>
  raw.replace(/\D/g, '').slice(0, String(MAX_OFFER_QUANTITY).length);

/** The units a quantity field's text stands for, or undefined when it holds no digits. */
export const parseQuantity = (text: string): number | undefined => (/^\d+$/.test(text) ? Number(text) : undefined);
