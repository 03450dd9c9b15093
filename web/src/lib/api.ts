import type { FieldErrors } from '../../../common/api/shared';
import { GENERIC_ERROR_TEXT } from '../../../common/errors';
import { noteSuspension } from './suspension';

type FieldError = FieldErrors[number];

/** A non-OK answer; `body` is the parsed JSON (or text) the server sent. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super('Network response was not ok');
  }
}

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /**
   * Money actions send one key per user action (the wallet's `usePaidAction` takes a new one per attempt), so a retry
   * of that action is never charged twice; a later attempt takes a new key. A 402 there opens the top-up popup.
   */
  idempotencyKey?: string;
  headers?: Record<string, string>;
}

export async function api<T>(path: string, opts: CallOptions = {}): Promise<T> {
  const method = opts.method ?? (opts.body === undefined ? 'GET' : 'POST');
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  let body: string | FormData | undefined;
  // A form (a file upload) goes as multipart: the browser sets its content type with the boundary.
  if (opts.body instanceof FormData) body = opts.body;
  else if (method !== 'GET') {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body ?? {});
  }
  if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
  const res = await send(path, { method, headers, body, credentials: 'same-origin' }, opts.idempotencyKey);
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  if (!res.ok) {
    // A suspended user's paid or writing call: the shell's banner says until when (lib/suspension.ts).
    noteSuspension(res.status, parsed);
    throw new ApiError(res.status, parsed);
  }
  return parsed as T;
}

/** The pauses before each retry of a keyed call whose outcome is unknown. */
export const RETRY_PAUSES_MS = [500, 1500] as const;

/**
 * Sends a call. One with an Idempotency-Key (a money action) is sent again, under the same key, when its outcome is
 * unknown: no answer came (the network dropped) or the server answered 503 (the database was away, the call may or
 * may not have committed). The server runs it at most once and answers a replay with the first answer (docs/decisions.md),
 * so a retry is safe. Any other answer, a refusal included, is final for that attempt: the user's next try (after a
 * top-up, after agreeing to a new price) is a new action with a new key.
 */
async function send(path: string, init: RequestInit, idempotencyKey: string | undefined): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const last = idempotencyKey === undefined || attempt >= RETRY_PAUSES_MS.length;
    try {
      const res = await fetch(path, init);
      if (res.status !== 503 || last) return res;
    } catch (err) {
      if (last) throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSES_MS[attempt]));
  }
}

/**
 * One key per user action (each click, each submit), never reused for another attempt; the retries of one attempt
 * (`send`) carry it. `crypto.randomUUID` exists only in secure contexts (https or localhost); a tenant's host
 * served over plain http gets the same version-4 UUID from `getRandomValues`, which exists everywhere.
 */
export function newActionKey(): string {
  if (typeof crypto.randomUUID === 'function' && globalThis.isSecureContext !== false) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The field errors of a 400 answer, or undefined when the failure was of another kind. */
export function fieldErrorsOf(err: unknown): FieldErrors | undefined {
  if (!(err instanceof ApiError) || err.status !== 400 || !Array.isArray(err.body)) return undefined;
  return (err.body as unknown[]).filter(
    (e): e is FieldError =>
      typeof e === 'object' && e !== null && typeof (e as FieldError).errorText === 'string' && 'field' in e,
  );
}

/** What to show for a failed form call: server field errors by field, or the generic text. */
export function formErrors(
  err: unknown,
  fields: readonly string[],
): { byField: Record<string, string>; general?: string } {
  const list = fieldErrorsOf(err);
  if (!list || list.length === 0) return { byField: {}, general: GENERIC_ERROR_TEXT };
  const byField: Record<string, string> = {};
  const other: string[] = [];
  for (const e of list) {
    if (fields.includes(e.field) && !byField[e.field]) byField[e.field] = e.errorText;
    else other.push(e.errorText);
  }
  return { byField, general: other.length ? other.join(' ') : undefined };
}

/**
 * A call whose answer is shown as the server wrote it (the admin console's approve and reject, docs/product.md#admin): the status
 * and the body's text, whatever the status. Only a network failure throws.
 */
export async function apiText(path: string, opts: CallOptions = {}): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
  const init: RequestInit = {
    method: opts.method ?? (opts.body === undefined ? 'GET' : 'POST'),
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    credentials: 'same-origin',
  };
  const res = await send(path, init, opts.idempotencyKey);
  const text = await res.text();
  if (res.status === 403) {
    try {
      noteSuspension(res.status, JSON.parse(text));
    } catch {
      // Not JSON: not a suspension.
    }
  }
  return { status: res.status, text };
}
