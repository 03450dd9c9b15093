/**
 * The admin charity form's rules (docs/product.md#admin): the amount is typed in
 * dollars with at most two decimals and sent in cents; a dropdown with free text is green on a value it offers.
 */

/** Cents for a typed dollar amount ('12', '12.5', '12.50', '$1,200.05'), or undefined when it is not one. */
export function amountToCents(text: string): number | undefined {
  const clean = text.trim().replace(/^\$/, '').replace(/,/g, '');
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$|^\.(\d{1,2})$/.exec(clean);
  if (!m) return undefined;
  const dollars = Number(m[1] ?? '0');
  const fraction = (m[2] ?? m[3] ?? '').padEnd(2, '0');
  return dollars * 100 + Number(fraction || '0');
}

/** True when the typed value is exactly one of the offered options (surrounding spaces aside). */
export function isOffered(value: string, options: readonly string[] | undefined): boolean {
  const v = value.trim();
  return v !== '' && (options ?? []).includes(v);
}

/** A link id as typed, or undefined. */
export function linkIdOf(text: string): number | undefined {
  return /^\d{1,15}$/.test(text.trim()) ? Number(text.trim()) : undefined;
}
