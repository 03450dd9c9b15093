import { vi } from 'vitest';

/* For tests only (happy-dom): a browser with a service worker, the Push API and notifications, all in memory. */

export interface FakeSubscription {
  endpoint: string;
  options: { applicationServerKey: ArrayBuffer | null };
  toJSON: () => PushSubscriptionJSON;
  unsubscribe: () => Promise<boolean>;
}

export interface FakePush {
  permission: NotificationPermission;
  /** What the prompt answers. */
  prompt: NotificationPermission;
  subscription: FakeSubscription | null;
  /** What subscribe throws (a push service that cannot be reached: an AbortError). */
  subscribeError: Error | null;
  subscribed: { userVisibleOnly?: boolean; applicationServerKey?: BufferSource | string | null }[];
  unsubscribed: string[];
}

export function fakeSubscription(endpoint: string, key: Uint8Array, push: FakePush): FakeSubscription {
  return {
    endpoint,
    options: { applicationServerKey: key.slice().buffer },
    toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh: 'p256dh-key', auth: 'auth-key' } }),
    unsubscribe: async () => {
      push.unsubscribed.push(endpoint);
      if (push.subscription?.endpoint === endpoint) push.subscription = null;
      return true;
    },
  };
}

/** Installs the fake on the globals (undone by `vi.unstubAllGlobals()`); without `supported`, the browser has none. */
export function fakePush(supported = true): FakePush {
  const push: FakePush = {
    permission: 'default',
    prompt: 'granted',
    subscription: null,
    subscribeError: null,
    subscribed: [],
    unsubscribed: [],
  };
  if (!supported) return push;
  const pushManager = {
    getSubscription: async () => push.subscription,
    subscribe: async (options: FakePush['subscribed'][number]) => {
      if (push.subscribeError) throw push.subscribeError;
      push.subscribed.push(options);
      const key = options.applicationServerKey as Uint8Array;
      push.subscription = fakeSubscription(`https://push.example/${push.subscribed.length}`, key, push);
      return push.subscription;
    },
  };
  const registration = { pushManager };
  vi.stubGlobal('PushManager', class {});
  vi.stubGlobal('Notification', {
    get permission() {
      return push.permission;
    },
    requestPermission: async () => {
      push.permission = push.prompt;
      return push.prompt;
    },
  });
  vi.stubGlobal('navigator', {
    ...navigator,
    userAgent: navigator.userAgent,
    serviceWorker: { getRegistration: async () => registration, ready: Promise.resolve(registration) },
  });
  return push;
}
