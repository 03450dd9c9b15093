/**
 * Telling "the database is not there right now" apart from every other failure. Such an error is the caller's cue
 * to answer 503 and try again later (docs/product.md#errors: no internals in a 5xx); anything else is a bug worth a 500.
 */

/** Raised by our own bounds on connect, statement and transaction time. */
export class DatabaseUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DatabaseUnavailableError';
  }
}

/** Socket-level failures: nothing listening, the connection dropped, no route, no name. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs that mean the server is going, gone, overloaded, or ran out of the time we gave it. Class 08 is
 * "connection exception" as a whole.
 */
const SERVER_CODES = new Set([
  '57P01', // admin_shutdown: PostgreSQL is stopping (a restart)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or shutting down
  '57014', // query_canceled: our statement_timeout
  '25P03', // idle_in_transaction_session_timeout
  '53300', // too_many_connections
]);

/** What node-postgres says, without a code, about a connection that is lost or could not be had in time. */
const DRIVER_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^Client has encountered a connection error and is not queryable/,
  /^Client was closed and is not queryable/,
  /^Cannot use a pool after calling end on the pool/,
  /^Query read timeout/,
  /^timeout expired/,
];

/**
 * What ioredis says when Redis (which holds the shared rate-limit counters) cannot be reached: a sign-in that cannot
 * be counted is as unanswerable now as one that cannot be looked up, and gets the same 503.
 */
const REDIS_MESSAGES = [
  /^Reached the max retries per request limit/,
  /^Connection is closed\.?$/,
  /^Stream isn't writeable/,
  /^Command timed out$/,
];

/** True when `err`, or an error it wraps (drizzle wraps driver errors in `cause`), means the database is away. */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof DatabaseUnavailableError) return true;
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith('08'))) {
      return true;
    }
    if (typeof message === 'string' && [...DRIVER_MESSAGES, ...REDIS_MESSAGES].some((m) => m.test(message)))
      return true;
    if (e instanceof AggregateError && e.errors.some(isDatabaseUnavailable)) return true;
  }
  return false;
}

/**
 * Raised by the object storage (storage/s3.ts) when the bucket cannot be reached, does not answer in time, or answers
 * with a server error: like the database being away, the caller answers 503 and the next request tries again
 * (docs/decisions.md "Images in object storage").
 */
export class StorageUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageUnavailableError';
  }
}

/** True when `err`, or an error it wraps, is the image storage being away. */
export function isStorageUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof StorageUnavailableError) return true;
  }
  return false;
}
