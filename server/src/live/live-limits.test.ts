import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeUser, signIn } from '../test/factories';
import { startTestApp, type TestApp } from '../test/harness';
import { EventEmitter } from 'node:events';
import type WebSocket from 'ws';
import { MemoryBus } from './bus';
import { addressGroup } from './address';
import { Hub } from './hub';
import { LiveTestClient, settle, sleep, type LiveClientOptions, type Refusal } from './live-test-client';

const PER_ADDRESS = 4;
const PER_SESSION = 2;

let t: TestApp;
let base: string;
const open: LiveTestClient[] = [];

beforeAll(async () => {
  t = await startTestApp({ config: { liveMaxPerAddress: PER_ADDRESS, liveMaxPerSession: PER_SESSION } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterEach(async () => {
  for (const c of open.splice(0)) c.close();
  await until(() => hub().size === 0); // each test starts with every slot free
});
afterAll(() => t.close());

const hub = () => t.ctx.live as Hub;

async function until(done: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`not done within ${ms} ms`);
    await sleep(20);
  }
}

async function connect(opts: LiveClientOptions = {}): Promise<LiveTestClient> {
  const client = await LiveTestClient.open(base, opts);
  open.push(client);
  return client;
}

/** The refusal of a socket the server would not take. */
async function refusal(opts: LiveClientOptions): Promise<Refusal> {
  const err = await connect(opts).then(
    () => undefined,
    (e: Refusal) => e,
  );
  if (!err) throw new Error('the socket was let in');
  return err;
}

/** Retries until let in: the server hears a close a moment after the client sends it. */
async function connectOnceFree(opts: LiveClientOptions): Promise<LiveTestClient> {
  const deadline = Date.now() + 5000;
  for (;;) {
    try {
      return await connect(opts);
    } catch (err) {
      if ((err as Refusal).status !== 429 || Date.now() > deadline) throw err;
      await sleep(50);
    }
  }
}

describe('sockets per address', () => {
  it('refuses the one past the cap with 429 in the contract form, and lets a new one in once one closes', async () => {
    const from = { localAddress: '127.0.0.2' };
    const tabs = [];
    for (let i = 0; i < PER_ADDRESS; i++) tabs.push(await connect(from));

    const refused = await refusal(from);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toEqual({ message: expect.stringMatching(/^Too many live connections/) });
    // Another address is not affected.
    await settle(await connect({ localAddress: '127.0.0.3' }));

    tabs[0]!.close();
    const again = await connectOnceFree(from);
    again.subscribe('picture');
    await settle(again);
    for (const tab of tabs.slice(1)) await settle(tab); // the others were never disturbed
    expect((await refusal(from)).status).toBe(429);
  });

  it('holds exactly at the cap when many sockets arrive at the same moment', async () => {
    const from = { localAddress: '127.0.0.4' };
    const attempts = await Promise.allSettled(Array.from({ length: 12 }, () => connect(from)));
    const admitted = attempts.flatMap((a) => (a.status === 'fulfilled' ? [a.value] : []));
    for (const a of attempts) {
      if (a.status === 'rejected') expect((a.reason as Refusal).status).toBe(429);
    }
    await sleep(100);
    // A socket that slipped past the first check together with others is closed at once with 1013 (try again later).
    const staying = admitted.filter((c) => c.closeCode === undefined);
    for (const c of admitted.filter((c) => c.closeCode !== undefined)) expect(c.closeCode).toBe(1013);
    expect(staying).toHaveLength(PER_ADDRESS);
    await Promise.all(staying.map(settle));
  });
});

describe('sockets per session', () => {
  it('refuses the one past the cap for that session only, and lets a new one in once one closes', async () => {
    const user = await makeUser(t.ctx);
    const cookie = (await signIn(t, user.id)).cookieHeader();
    const from = { localAddress: '127.0.0.5', cookie };
    const tabs = [];
    for (let i = 0; i < PER_SESSION; i++) tabs.push(await connect(from));

    const refused = await refusal(from);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toEqual({ message: expect.stringMatching(/^Too many live connections/) });
    // The same user signed in elsewhere, and a visitor on the same address, are other sessions.
    const otherSession = (await signIn(t, user.id)).cookieHeader();
    await settle(await connect({ localAddress: '127.0.0.5', cookie: otherSession }));
    await settle(await connect({ localAddress: '127.0.0.5' }));

    tabs[1]!.close();
    const again = await connectOnceFree(from);
    again.subscribe('balance');
    await again.next((f) => f.ch === 'balance' && f.m.value === 0);
  });
});

describe('the hub', () => {
  /** Enough of a socket for the hub to hold: it records how it was closed. */
  class FakeSocket extends EventEmitter {
    readyState = 1;
    closedWith: number | undefined;
    close(code: number) {
      this.closedWith = code;
      this.readyState = 3;
      this.emit('close', code);
    }
  }
  const log = { warn() {}, error() {} };

  it('closes with 1013 a socket added past the cap, as when upgrades that arrived together all passed the check', () => {
    const h = new Hub({ bus: new MemoryBus(), heartbeatMs: 60_000, maxPerAddress: 2, maxPerSession: 1, log });
    const caller = (session: string | null) => ({ userId: null, session, address: '192.0.2.1' });
    const sockets = Array.from({ length: 3 }, () => new FakeSocket());
    expect(h.refusal(caller('s1'))).toBeUndefined();
    h.add(sockets[0] as unknown as WebSocket, caller('s1'));
    expect(h.refusal(caller('s1'))).toMatch(/for this session/);
    h.add(sockets[1] as unknown as WebSocket, caller('s1'));
    h.add(sockets[2] as unknown as WebSocket, caller(null));
    expect(sockets.map((s) => s.closedWith)).toEqual([undefined, 1013, undefined]);
    expect(h.size).toBe(2);
    expect(h.refusal(caller(null))).toMatch(/from this address/);
    sockets[0]!.close(1000);
    expect(h.refusal(caller('s1'))).toBeUndefined();
    h.close();
  });
});

describe('addressGroup', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::9', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff::', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
  ])('counts %s as %s', (ip, group) => {
    expect(addressGroup(ip)).toBe(group);
  });
});
