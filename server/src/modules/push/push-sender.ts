import webpush from 'web-push';

/*
 * One push to one device (docs/product.md#push): the message encrypted to the device's keys (RFC 8291, aes128gcm),
 * signed with the server's VAPID key (RFC 8292), with the time the push service may keep it for a device that is
 * away (TTL). web-push builds the request; it is sent here with fetch, so a request has a deadline and a local
 * push server on http:// (PUSH_ALLOW_HTTP, tests) is reached the same way as a real one (docs/decisions.md "Issue 27:
 * the push outbox and VAPID keys").
 */

export interface Vapid {
  publicKey: string;
  privateKey: string;
  /** mailto: or https:, how the push service reaches the operator. */
  subject: string;
}

export interface Device {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** What became of one try. */
export type PushOutcome =
  /** The push service took it (201). */
  | { kind: 'sent' }
  /** The push service no longer knows the device (404, 410), or its keys cannot be encrypted to: drop the device. */
  | { kind: 'gone'; reason: string }
  /** The push service refused this message for good (400, 413): drop the message, keep the device. */
  | { kind: 'refused'; reason: string }
  /** Anything else (5xx, 429, 401/403, no answer in time, no connection): try again later. */
  | { kind: 'failed'; reason: string };

/** Makes a VAPID pair (P-256, base64url), as web-push does. */
export function newVapidPair(): { publicKey: string; privateKey: string } {
  return webpush.generateVAPIDKeys();
}

/** Sends `payload` to `device`, giving up after `timeoutMs`. Never throws. */
export async function sendPush(
  vapid: Vapid,
  device: Device,
  payload: string,
  opts: { ttlSeconds: number; timeoutMs: number },
): Promise<PushOutcome> {
  let request: ReturnType<typeof webpush.generateRequestDetails>;
  try {
    request = webpush.generateRequestDetails({ endpoint: device.endpoint, keys: device }, payload, {
      vapidDetails: vapid,
      TTL: Math.max(0, Math.floor(opts.ttlSeconds)),
      contentEncoding: 'aes128gcm',
      urgency: 'normal',
    });
  } catch (err) {
    return { kind: 'gone', reason: `cannot encrypt to this device: ${(err as Error).message}` };
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    // fetch counts the body itself.
    if (name.toLowerCase() !== 'content-length') headers[name] = String(value);
  }
  let res: Response;
  try {
    res = await fetch(request.endpoint, {
      method: 'POST',
      headers,
      body: request.body ? new Uint8Array(request.body) : undefined,
      redirect: 'error',
      signal: AbortSignal.timeout(opts.timeoutMs),
    });
  } catch (err) {
    const e = err as Error;
    const cause = (e.cause as Error | undefined)?.message;
    return { kind: 'failed', reason: e.name === 'TimeoutError' ? 'no answer in time' : (cause ?? e.message) };
  }
  const text = await res.text().catch(() => '');
  const reason = `HTTP ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}`;
  if (res.ok) return { kind: 'sent' };
  if (res.status === 404 || res.status === 410) return { kind: 'gone', reason };
  if (res.status === 400 || res.status === 413) return { kind: 'refused', reason };
  return { kind: 'failed', reason };
}
