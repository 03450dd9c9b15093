// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PushPreferences } from '../../../../../common/api/push';
import { PUSH_TYPE_LABELS, PUSH_TYPES } from '../../../../../common/push';
import { setLoggedIn } from '../../../lib/session';
import { testRoot } from '../../../lib/test-root';
import { fakePush, fakeSubscription, type FakePush } from '../lib/fake-push';
import { PushSettings } from './PushSettings';

const mount = testRoot();
beforeEach(() => setLoggedIn(true, false));
afterEach(() => vi.unstubAllGlobals());

const KEY = Buffer.from(Uint8Array.from({ length: 65 }, (_, i) => i)).toString('base64url');
const allOn = () => Object.fromEntries(PUSH_TYPES.map((t) => [t, true])) as PushPreferences;

interface Call {
  url: string;
  method: string;
  body: unknown;
}

/** The server: preferences kept in memory; `failPut` answers 500 to a PUT, `failPost` to a subscription. */
function server(opts: { failPut?: boolean; failPost?: boolean } = {}) {
  const prefs = allOn();
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    const method = init.method ?? 'GET';
    const body = init.body ? (JSON.parse(init.body as string) as unknown) : undefined;
    calls.push({ url, method, body });
    const json = (status: number, value: unknown) => new Response(JSON.stringify(value), { status });
    if (url === '/api/push/key') return json(200, { publicKey: KEY });
    if (url === '/api/push/preferences' && method === 'GET') return json(200, prefs);
    if (url === '/api/push/preferences' && method === 'PUT') {
      if (opts.failPut) return json(500, { message: 'Internal Server Error' });
      Object.assign(prefs, body);
      return json(200, prefs);
    }
    if (url === '/api/push/subscriptions') {
      return opts.failPost && method === 'POST' ? json(500, { message: 'Internal Server Error' }) : json(200, {});
    }
    return json(404, {});
  });
  return { prefs, calls };
}

async function render() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  mount.render(
    <QueryClientProvider client={client}>
      <PushSettings />
    </QueryClientProvider>,
  );
  await settle();
  return client;
}

/** Lets the fetches and the renders they cause finish. */
const settle = () =>
  act(async () => {
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
  });
const host = () => mount.host();
const text = () => host().textContent ?? '';
const switches = () => [...host().querySelectorAll<HTMLInputElement>('input[role="switch"]')];
const button = (name: string) => [...host().querySelectorAll('button')].find((b) => b.textContent === name);
const click = async (el: Element | undefined) => {
  expect(el).toBeDefined();
  await act(async () => (el as HTMLElement).click());
  await settle();
};

describe('the push switches', () => {
  it('shows one switch per type with its label, all on, even where push is not supported', async () => {
    server();
    fakePush(false);
    await render();
    expect(host().querySelector('summary')?.textContent).toBe('Push notificationsnot supported here');
    expect(switches().map((s) => [s.parentElement?.textContent, s.checked])).toEqual(
      PUSH_TYPES.map((t) => [PUSH_TYPE_LABELS[t], true]),
    );
    expect(text()).toContain('Push is not supported in this browser');
    expect(button('Turn on push on this device')).toBeUndefined();
  });

  it('saves a change with the whole set', async () => {
    const { calls, prefs } = server();
    fakePush(false);
    await render();
    await click(switches()[1]);
    expect(calls.at(-1)).toEqual({
      url: '/api/push/preferences',
      method: 'PUT',
      body: { ...allOn(), REACTION: false },
    });
    expect(prefs.REACTION).toBe(false);
    expect(switches()[1]!.checked).toBe(false);
    expect(switches()[0]!.checked).toBe(true);
  });

  it('puts the switch back and says so when saving fails', async () => {
    server({ failPut: true });
    fakePush(false);
    await render();
    await click(switches()[0]);
    expect(switches()[0]!.checked).toBe(true);
    expect(host().querySelector('[role="alert"]')?.textContent).toBe(
      'Your change could not be saved. Please try again.',
    );
  });
});

describe('push on this device', () => {
  let push: FakePush;

  it('says when notifications are blocked, with no button', async () => {
    server();
    push = fakePush();
    push.permission = 'denied';
    await render();
    expect(text()).toContain('Notifications are blocked in your browser settings');
    expect(button('Turn on push on this device')).toBeUndefined();
  });

  it('turns on: the prompt, the subscription, and the server told', async () => {
    const { calls } = server();
    push = fakePush();
    await render();
    expect(text()).toContain('Push is off on this device.');
    await click(button('Turn on push on this device'));
    expect(push.subscribed).toHaveLength(1);
    expect(calls.find((c) => c.method === 'POST')).toEqual({
      url: '/api/push/subscriptions',
      method: 'POST',
      body: {
        endpoint: 'https://push.example/1',
        expirationTime: null,
        keys: { p256dh: 'p256dh-key', auth: 'auth-key' },
      },
    });
    expect(text()).toContain('Push is on on this device.');
    expect(host().querySelector('summary')?.textContent).toContain('on on this device');

    await click(button('Turn off push on this device'));
    expect(calls.at(-1)).toEqual({
      url: '/api/push/subscriptions',
      method: 'DELETE',
      body: { endpoint: 'https://push.example/1' },
    });
    expect(push.unsubscribed).toEqual(['https://push.example/1']);
    expect(text()).toContain('Push is off on this device.');
  });

  it('says in words when the push service cannot be reached, and stays off', async () => {
    server();
    push = fakePush();
    push.subscribeError = new DOMException('Registration failed - push service not available', 'AbortError');
    await render();
    await click(button('Turn on push on this device'));
    expect(host().querySelector('[role="alert"]')?.textContent).toBe(
      "This browser's push service is not available right now. Please try again later.",
    );
    expect(text()).toContain('Push is off on this device.');
  });

  it('drops the subscription again when the server does not take it', async () => {
    server({ failPost: true });
    push = fakePush();
    await render();
    await click(button('Turn on push on this device'));
    expect(push.subscription).toBeNull();
    expect(host().querySelector('[role="alert"]')?.textContent).toBe('Push could not be turned on. Please try again.');
  });

  it('sends a subscription the browser already holds to the server (this session owns it)', async () => {
    const { calls } = server();
    push = fakePush();
    push.permission = 'granted';
    push.subscription = fakeSubscription('https://push.example/kept', new Uint8Array(65), push);
    await render();
    expect(text()).toContain('Push is on on this device.');
    expect(calls.filter((c) => c.method === 'POST').map((c) => (c.body as { endpoint: string }).endpoint)).toEqual([
      'https://push.example/kept',
    ]);
  });
});
