import { DEFAULT_REACTION_PRICE, MAX_REACTION_PRICE } from '../../../../../common/comments';

/*
 * The reaction amount (docs/product.md#comments): decimal dollars with at most two decimals, a comma
 * becoming a dot, '0.00' refused, 15¢ by default, at least 1¢.
 */

export const DEFAULT_REACTION_TEXT = (DEFAULT_REACTION_PRICE / 100).toFixed(2);

/** What the field keeps of what was typed: digits and one point (a comma becomes one), two decimals at most. */
export function cleanAmountInput(raw: string): string {
  const text = raw.replace(/,/g, '.').replace(/[^\d.]/g, '');
  const point = text.indexOf('.');
  if (point < 0) return text.slice(0, 6);
  const decimals = text
    .slice(point + 1)
    .replace(/\./g, '')
    .slice(0, 2);
  return `${text.slice(0, point).slice(0, 6)}.${decimals}`;
}

/** The cents the field stands for, or why it stands for none. */
export function parseReactionAmount(text: string): { cents: number } | { error: string } {
  const m = /^(\d{0,6})(?:[.,](\d{0,2}))?$/.exec(text.trim());
  if (!m || (m[1] === '' && (m[2] ?? '') === '')) return { error: 'Enter an amount in dollars, like 0.15.' };
  const cents = Number(m[1] || '0') * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  if (cents < 1) return { error: 'The amount must be at least 0.01.' };
  if (cents > MAX_REACTION_PRICE) return { error: 'The amount is too large.' };
  return { cents };
}
