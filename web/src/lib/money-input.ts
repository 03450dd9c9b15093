import { DEFAULT_TOPUP_CENTS } from '../../../common/constants';

/** Whole dollars: at most six digits (docs/product.md#limits). */
export const MAX_DOLLAR_DIGITS = 6;

/** Keys a number input would otherwise accept but an amount of whole dollars must not contain. */
const BLOCKED_KEYS = new Set(['-', '+', 'e', 'E', '.', ',']);
export const isBlockedAmountKey = (key: string): boolean => BLOCKED_KEYS.has(key);

/** What the field keeps of what was typed or pasted: digits only, at most six, no leading zeros. */
export function cleanDollarInput(raw: string): string {
  return raw.replace(/\D/g, '').replace(/^0+/, '').slice(0, MAX_DOLLAR_DIGITS);
}

/** The cents to send for the field's text, or undefined when it is not a valid amount (minimum $1). */
export function dollarsToCents(text: string): number | undefined {
  if (!/^\d{1,6}$/.test(text)) return undefined;
  const dollars = Number(text);
  return dollars >= 1 ? dollars * 100 : undefined;
}

/** The first amount offered: the shortfall (or the default 500 cents) rounded up to whole dollars. */
export function suggestedDollars(missingCents?: number): number {
  const cents = missingCents && missingCents > 0 ? missingCents : DEFAULT_TOPUP_CENTS;
  return Math.min(10 ** MAX_DOLLAR_DIGITS - 1, Math.max(1, Math.ceil(cents / 100)));
}
