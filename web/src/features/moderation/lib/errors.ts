import { GENERIC_ERROR_TEXT } from '../../../../../common/errors';
import { ApiError } from '../../../lib/api';

/** A refusal's own message ('Error: {message}', docs/product.md#errors), or the generic text. */
export function refusalText(err: unknown): string {
  const message = err instanceof ApiError ? (err.body as { message?: unknown } | undefined)?.message : undefined;
  return typeof message === 'string' && message !== '' ? `Error: ${message}` : GENERIC_ERROR_TEXT;
}

export const statusOf = (err: unknown): number => (err instanceof ApiError ? err.status : 0);
