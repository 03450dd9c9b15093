import type { FieldError } from '../../../common/errors';

/** An error whose status and body the client is meant to see (docs/product.md#errors). */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: unknown,
    /** Headers the answer carries (Retry-After on a 429). */
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body === 'object' && body && 'message' in body ? String(body.message) : `HTTP ${statusCode}`);
  }
}

export const badRequest = (errors: FieldError[]) => new HttpError(400, errors);
export const fieldError = (field: string, errorText: string) => badRequest([{ field, errorText }]);
export const unauthorized = () => new HttpError(401, { message: 'Sign in first.' });
export const forbidden = (message = 'Not allowed.') => new HttpError(403, { message });
export const notFound = (message = 'Not found.') => new HttpError(404, { message });
export const conflict = (body: object) => new HttpError(409, body);
/** The database (or another service we need) is away for now: nothing about why, only that a retry may work. */
export const serviceUnavailable = () =>
  new HttpError(503, { message: 'The service is briefly unavailable. Please try again in a moment.' });

/** How long to wait, in words, rounded up to whole minutes (or hours past one): '12 minutes', 'a minute'. */
export function waitText(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  if (minutes === 1) return 'a minute';
  if (minutes < 60) return `${minutes} minutes`;
  const hours = Math.ceil(minutes / 60);
  return hours === 1 ? 'an hour' : `${hours} hours`;
}

/** 429 saying truthfully how long the limit holds, from the counter's window, with Retry-After in seconds. */
export const tooManyRequests = (retryAfterMs: number) =>
  new HttpError(
    429,
    { message: `Too many attempts. Try again in ${waitText(retryAfterMs)}.` },
    { 'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) },
  );
