import { ApiError, fieldErrorsOf } from '../../../lib/api';

/** A short balance: lib/api.ts has already opened the top-up popup with the shortfall, which says it all. */
export const isShortBalance = (err: unknown): boolean => err instanceof ApiError && err.status === 402;

/**
 * What the screen says when a market call fails. A 402 says nothing (the top-up popup does); a 400 shows the
 * server's first field error; a 404 or 409 (the book moved since it was shown) its message, or `moved`; anything
 * else is only logged (docs/product.md#market: offer creation and cancellation failures are logged).
 */
export function failureText(err: unknown, moved?: string): string | undefined {
  if (isShortBalance(err)) return undefined;
  if (err instanceof ApiError && err.status === 400) {
    const text = fieldErrorsOf(err)?.[0]?.errorText;
    if (text) return text;
  }
  if (err instanceof ApiError && (err.status === 404 || err.status === 409)) {
    const message = (err.body as { message?: unknown } | undefined)?.message;
    return moved ?? (typeof message === 'string' ? message : undefined);
  }
  console.warn('market call failed', err);
  return undefined;
}
