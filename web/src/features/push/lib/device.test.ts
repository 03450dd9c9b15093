// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api';
import {
  base64UrlToBytes,
  forgetDevice,
  NoServiceWorker,
  readDevice,
  sameKey,
  stateOf,
  subscribeDevice,
  subscriptionBody,
  turnOnErrorText,
  unsubscribeDevice,
} from './device';
import { fakePush, fakeSubscription } from './fake-push';

afterEach(() => vi.unstubAllGlobals());

/** A VAPID public key's shape: 65 bytes of an uncompressed P-256 point. */
const keyBytes = Uint8Array.from({ length: 65 }, (_, i) => (i * 37 + 4) % 256);
const KEY = Buffer.from(keyBytes).toString('base64url');

describe('base64UrlToBytes', () => {
  it('reads an unpadded base64url VAPID key into its 65 bytes', () => {
    expect(KEY).toMatch(/[-_]/);
    expect(KEY).not.toContain('=');
    expect([...base64UrlToBytes(KEY)]).toEqual([...keyBytes]);
  });

  it('reads every length, padded or not', () => {
    for (let n = 0; n <= 6; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => 250 - i);
      expect([...base64UrlToBytes(Buffer.from(bytes).toString('base64url'))]).toEqual([...bytes]);
      expect([...base64UrlToBytes(Buffer.from(bytes).toString('base64'))]).toEqual([...bytes]);
    }
  });

  it('refuses what is not base64url', () => {
    expect(() => base64UrlToBytes('ab$d')).toThrow();
    expect(() => base64UrlToBytes('abcde')).toThrow();
  });
});

describe('sameKey', () => {
  it('compares a subscription key with the server key byte for byte', () => {
    expect(sameKey(keyBytes.slice().buffer, keyBytes)).toBe(true);
    const other = keyBytes.slice();
    other[64] = other[64]! ^ 1;
    expect(sameKey(other.buffer, keyBytes)).toBe(false);
    expect(sameKey(keyBytes.slice(1).buffer, keyBytes)).toBe(false);
    expect(sameKey(null, keyBytes)).toBe(false);
  });
});

describe('subscriptionBody', () => {
  it("takes the browser's subscription JSON as the server's body", () => {
    expect(subscriptionBody({ endpoint: 'https://p/1', keys: { p256dh: 'a', auth: 'b' } })).toEqual({
      endpoint: 'https://p/1',
      expirationTime: null,
      keys: { p256dh: 'a', auth: 'b' },
    });
  });

  it('is undefined without keys', () => {
    expect(subscriptionBody({ endpoint: 'https://p/1' })).toBeUndefined();
    expect(subscriptionBody({ keys: { p256dh: 'a', auth: 'b' } })).toBeUndefined();
  });
});

describe('stateOf', () => {
  const sub = { endpoint: 'https://p/1' };
  it('names each state', () => {
    expect(stateOf(false, 'granted', sub)).toEqual({ kind: 'unsupported' });
    expect(stateOf(true, 'denied', sub)).toEqual({ kind: 'blocked' });
    expect(stateOf(true, 'granted', sub)).toEqual({ kind: 'on', endpoint: 'https://p/1' });
    expect(stateOf(true, 'granted', null)).toEqual({ kind: 'off' });
    expect(stateOf(true, 'default', null)).toEqual({ kind: 'off' });
  });
});

describe('turnOnErrorText', () => {
  it('says in words what failed, never an error name or a status', () => {
    const texts = [
      turnOnErrorText(new NoServiceWorker()),
      turnOnErrorText(new DOMException('Registration failed - push service not available', 'AbortError')),
      turnOnErrorText(new DOMException('x', 'NotAllowedError')),
      turnOnErrorText(new ApiError(500, { message: 'Internal Server Error' })),
      turnOnErrorText('???'),
    ];
    expect(texts[1]).toContain('push service is not available');
    expect(texts[2]).toBe('Notifications are blocked in your browser settings');
    for (const t of texts) expect(t).not.toMatch(/Error|\d{3}|push service not available/);
  });
});

describe('this device', () => {
  it('is unsupported without a service worker or the Push API', async () => {
    fakePush(false);
    expect(await readDevice()).toEqual({ kind: 'unsupported' });
    expect(await unsubscribeDevice()).toBeNull();
  });

  it('reads blocked, off and on', async () => {
    const push = fakePush();
    expect(await readDevice()).toEqual({ kind: 'off' });
    push.permission = 'denied';
    expect(await readDevice()).toEqual({ kind: 'blocked' });
    push.permission = 'granted';
    push.subscription = fakeSubscription('https://push.example/a', keyBytes, push);
    expect(await readDevice()).toEqual({ kind: 'on', endpoint: 'https://push.example/a' });
  });

  it('asks once, then subscribes visibly with the key bytes', async () => {
    const push = fakePush();
    const outcome = await subscribeDevice(KEY);
    expect(outcome.kind).toBe('on');
    expect(push.subscribed).toHaveLength(1);
    expect(push.subscribed[0]!.userVisibleOnly).toBe(true);
    expect([...(push.subscribed[0]!.applicationServerKey as Uint8Array)]).toEqual([...keyBytes]);
    // Asked again with the same key: the same subscription.
    await subscribeDevice(KEY);
    expect(push.subscribed).toHaveLength(1);
  });

  it('drops a subscription made with another key before subscribing', async () => {
    const push = fakePush();
    push.permission = 'granted';
    push.subscription = fakeSubscription('https://push.example/old', new Uint8Array(65), push);
    await subscribeDevice(KEY);
    expect(push.unsubscribed).toEqual(['https://push.example/old']);
    expect(push.subscribed).toHaveLength(1);
  });

  it('answers blocked or dismissed when the prompt says no', async () => {
    const push = fakePush();
    push.prompt = 'denied';
    expect(await subscribeDevice(KEY)).toEqual({ kind: 'blocked' });
    push.permission = 'default';
    push.prompt = 'default';
    expect(await subscribeDevice(KEY)).toEqual({ kind: 'dismissed' });
    expect(push.subscribed).toHaveLength(0);
  });

  it('forgets the subscription on sign-out, and never throws', async () => {
    const push = fakePush();
    push.permission = 'granted';
    push.subscription = fakeSubscription('https://push.example/a', keyBytes, push);
    await forgetDevice();
    expect(push.unsubscribed).toEqual(['https://push.example/a']);
    push.subscription = {
      ...fakeSubscription('https://push.example/b', keyBytes, push),
      unsubscribe: () => Promise.reject(new Error('x')),
    };
    await expect(forgetDevice()).resolves.toBeUndefined();
  });
});
