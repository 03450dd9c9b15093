import { createPublicKey } from 'node:crypto';

/*
 * Web Push's pure rules on the server (docs/product.md#push): which endpoints and keys a subscription may carry, and
 * how long a push waits after a push service failed it (docs/decisions.md "Issue 27: the push outbox and VAPID keys").
 */

/** The first wait after a failed try, doubling with each try after it. */
export const FIRST_RETRY_MS = 5_000;
/** The longest wait between two tries. */
export const LONGEST_RETRY_MS = 60 * 60_000;

/** How long to wait before the next try, after `attempts` failed ones (1: the first failed): 5 s, 10 s, … 1 h. */
export function retryDelayMs(attempts: number): number {
  const doublings = Math.min(30, Math.max(0, attempts - 1));
  return Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** doublings);
}

/**
 * When the next try is due after `attempts` failed ones at `now`, or null when it would come after the push's
 * expiry (it is dropped then).
 */
export function nextAttemptAt(attempts: number, now: Date, expiresAt: Date): Date | null {
  const next = new Date(now.getTime() + retryDelayMs(attempts));
  return next.getTime() < expiresAt.getTime() ? next : null;
}

export const PUSH_TEXT = {
  endpoint: 'A push endpoint must be an https:// address.',
  p256dh: 'The key must be a P-256 public key (65 bytes, uncompressed) in base64url.',
  auth: 'The secret must be 16 bytes in base64url.',
} as const;

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why a push endpoint is refused, or undefined when it is fine: https:// with a host, or, when `allowHttp` is set
 * (PUSH_ALLOW_HTTP=1: tests and a local push server), http:// on localhost or 127.0.0.1. No credentials in it.
 */
export function endpointError(endpoint: string, allowHttp: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return PUSH_TEXT.endpoint;
  }
  if (url.username || url.password || !url.hostname) return PUSH_TEXT.endpoint;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && allowHttp && LOCAL_HOSTS.has(url.hostname)) return undefined;
  return PUSH_TEXT.endpoint;
}

/** The bytes of an unpadded base64url string, or undefined when it is not one. */
function base64url(value: string): Buffer | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(value) || value.length % 4 === 1) return undefined;
  return Buffer.from(value, 'base64url');
}

function onCurve(point: Buffer): boolean {
  const coordinate = (from: number) => point.subarray(from, from + 32).toString('base64url');
  try {
    createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: coordinate(1), y: coordinate(33) }, format: 'jwk' });
    return true;
  } catch {
    return false;
  }
}

/** Why a subscription's keys are refused, as `{field, errorText}`, or undefined when both are fine (RFC 8291). */
export function keysError(keys: { p256dh: string; auth: string }): { field: string; errorText: string } | undefined {
  const point = base64url(keys.p256dh.replace(/=+$/, ''));
  // An uncompressed point, 0x04 then x and y of 32 bytes each, and on the curve (else encrypting to it would fail).
  if (point?.length !== 65 || point[0] !== 0x04 || !onCurve(point)) {
    return { field: 'keys.p256dh', errorText: PUSH_TEXT.p256dh };
  }
  if (base64url(keys.auth.replace(/=+$/, ''))?.length !== 16) {
    return { field: 'keys.auth', errorText: PUSH_TEXT.auth };
  }
  return undefined;
}
