import type { PushSubscriptionBody } from '../../../../../common/api/push';

/*
 * This browser's side of Web Push (docs/product.md#push): whether it can push, whether the user allowed
 * notifications, and its subscription. The server keeps the subscription per session; the calls are in ../api/push.ts.
 */

/** What this device can do and does. */
export type DeviceState =
  | { kind: 'unsupported' }
  /** The user (or the browser's settings) refused notifications for this site: only the browser's settings undo it. */
  | { kind: 'blocked' }
  | { kind: 'off' }
  | { kind: 'on'; endpoint: string };

/** What turning push on came to. */
export type TurnOnOutcome =
  { kind: 'on'; subscription: PushSubscription } | { kind: 'blocked' } | { kind: 'dismissed' };

/** Thrown when no service worker takes the subscription (it failed to install, or the page runs without one). */
export class NoServiceWorker extends Error {
  constructor() {
    super('no service worker');
  }
}

/** How long turning on waits for the service worker (`/sw.js`) to be active. */
const WORKER_WAIT_MS = 10_000;
/** How long signing out waits for the browser to drop the subscription before it goes on. */
const FORGET_WAIT_MS = 1_500;

/** A base64url string (padded or not) as bytes: the VAPID key's form for `applicationServerKey`. */
export function base64UrlToBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.trim().replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (!/^[A-Za-z0-9+/]*$/.test(base64) || base64.length % 4 === 1) throw new Error('not base64url');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Whether a subscription's `applicationServerKey` is the given key (a changed server key needs a new subscription). */
export function sameKey(current: ArrayBuffer | null | undefined, key: Uint8Array): boolean {
  if (!current) return false;
  const a = new Uint8Array(current);
  return a.length === key.length && a.every((b, i) => b === key[i]);
}

/** A subscription as the server takes it; `undefined` when the browser gave no keys (then it cannot be pushed to). */
export function subscriptionBody(json: PushSubscriptionJSON): PushSubscriptionBody | undefined {
  const { endpoint, keys, expirationTime } = json;
  if (!endpoint || !keys?.p256dh || !keys.auth) return undefined;
  return { endpoint, expirationTime: expirationTime ?? null, keys: { p256dh: keys.p256dh, auth: keys.auth } };
}

/** The state the permission and the subscription make. */
export function stateOf(
  supported: boolean,
  permission: NotificationPermission,
  subscription: { endpoint: string } | null,
): DeviceState {
  if (!supported) return { kind: 'unsupported' };
  if (permission === 'denied') return { kind: 'blocked' };
  if (subscription && permission === 'granted') return { kind: 'on', endpoint: subscription.endpoint };
  return { kind: 'off' };
}

/** Whether this browser has what Web Push needs (a service worker, the Push API, notifications). */
export function pushSupported(): boolean {
  return (
    typeof navigator !== 'undefined' &&
    'serviceWorker' in navigator &&
    typeof window !== 'undefined' &&
    'PushManager' in window &&
    'Notification' in window
  );
}

/** The service worker's registration if there is one now (never waits: `ready` waits forever without a worker). */
async function registration(): Promise<ServiceWorkerRegistration | undefined> {
  return (await navigator.serviceWorker.getRegistration()) ?? undefined;
}

/** This device's subscription, or null. */
async function currentSubscription(): Promise<PushSubscription | null> {
  const reg = await registration();
  return reg ? reg.pushManager.getSubscription() : null;
}

/** This device's state now. */
export async function readDevice(): Promise<DeviceState> {
  if (!pushSupported()) return { kind: 'unsupported' };
  return stateOf(true, Notification.permission, await currentSubscription());
}

/** The current subscription's body for the server, when push is on here (sent again so this session has it). */
export async function currentSubscriptionBody(): Promise<PushSubscriptionBody | undefined> {
  if (!pushSupported() || Notification.permission !== 'granted') return undefined;
  const sub = await currentSubscription();
  return sub ? subscriptionBody(sub.toJSON()) : undefined;
}

function within<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Asks for permission (the browser's prompt, once) and subscribes with the server's key. A subscription made with
 * another key (the server's key changed) is dropped first, since the browser refuses a second key.
 */
export async function subscribeDevice(publicKey: string): Promise<TurnOnOutcome> {
  const permission =
    Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission;
  if (permission === 'denied') return { kind: 'blocked' };
  if (permission !== 'granted') return { kind: 'dismissed' };
  const reg = await within(navigator.serviceWorker.ready, WORKER_WAIT_MS, () => new NoServiceWorker());
  const key = base64UrlToBytes(publicKey);
  const existing = await reg.pushManager.getSubscription();
  if (existing && sameKey(existing.options.applicationServerKey, key)) return { kind: 'on', subscription: existing };
  if (existing) await existing.unsubscribe();
  const subscription = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  return { kind: 'on', subscription };
}

/** Drops this device's subscription in the browser; answers its endpoint, or null when there was none. */
export async function unsubscribeDevice(): Promise<string | null> {
  if (!pushSupported()) return null;
  const sub = await currentSubscription();
  if (!sub) return null;
  await sub.unsubscribe();
  return sub.endpoint;
}

/**
 * On sign-out: the browser forgets this device's subscription (the server already dropped it with the session).
 * Best effort and short: it never throws, and gives up after a moment so signing out never waits on it.
 */
export async function forgetDevice(): Promise<void> {
  try {
    await within(unsubscribeDevice(), FORGET_WAIT_MS, () => new Error('timeout'));
  } catch {
    // Nothing to tell: a dead subscription is dropped by the server when its push service answers 404/410.
  }
}

/** What to say when turning push on failed: in words, never the browser's error name or a status. */
export function turnOnErrorText(err: unknown): string {
  if (err instanceof NoServiceWorker)
    return "Push could not be turned on: the app's background worker is not running. Reload the page and try again.";
  const name = typeof err === 'object' && err !== null && 'name' in err ? String(err.name) : '';
  if (name === 'NotAllowedError') return 'Notifications are blocked in your browser settings';
  if (name === 'AbortError' || name === 'NotSupportedError' || name === 'InvalidStateError')
    return "This browser's push service is not available right now. Please try again later.";
  return 'Push could not be turned on. Please try again.';
}
