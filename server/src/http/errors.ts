import type { FieldError } from '../../../common/errors';

/** An error whose status and body the client is meant to see (DESIGN.md §2 "Errors"). */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: unknown,
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
export const tooManyRequests = () => new HttpError(429, { message: 'Too many attempts. Try again in a minute.' });
