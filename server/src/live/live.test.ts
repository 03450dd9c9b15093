import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { audience, liveEvent } from '../../../common/live';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp } from '../test/harness';
import { makeUser, signIn } from '../test/factories';
import { hashToken, SESSION_COOKIE } from '../http/auth';
import { creditTopUp } from '../ledger/commands';
import { checkConservation } from '../ledger/conservation';
import { LiveTestClient, settle, sleep } from './live-test-client';

// Short, so the test of a vanished client is quick; under CI's load a healthy socket's pong can be late by more than
// 150 ms (the test's own process answers it), so there a second.
const HEARTBEAT_MS = process.env.CI ? 1_000 : 150;

let t: TestApp;
let base: string;
const open: LiveTestClient[] = [];

beforeAll(async () => {
  t = await startTestApp({ config: { liveHeartbeatMs: HEARTBEAT_MS } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});
afterAll(() => t.close());

async function connect(opts: Parameters<typeof LiveTestClient.open>[1] = {}): Promise<LiveTestClient> {
  const client = await LiveTestClient.open(base, opts);
  open.push(client);
  return client;
}

/** A user with a balance, and a cookie for their session. */
async function signedInUser(balance = 0) {
  const user = await makeUser(t.ctx, { balance });
  const cookie = (await signIn(t, user.id)).cookieHeader();
  return { ...user, cookie };
}

const credit = (userId: number, amount: number) =>
  t.ctx.transact((w) => creditTopUp(w, userId, amount, `live-${userId}-${amount}-${Date.now()}`));

describe('the balance channel', () => {
  it('tells a subscriber their new balance after a credit, and nobody else', async () => {
    const alice = await signedInUser(500);
    const bob = await signedInUser(300);
    const aliceTab = await connect({ cookie: alice.cookie });
    const bobTab = await connect({ cookie: bob.cookie });
    const anonymous = await connect();
    for (const tab of [aliceTab, bobTab, anonymous]) tab.subscribe('balance');
    await Promise.all([aliceTab, bobTab, anonymous].map(settle));
    await aliceTab.next((f) => f.ch === 'balance' && f.m.value === 500);
    await bobTab.next((f) => f.ch === 'balance' && f.m.value === 300);

    await credit(alice.id, 250);

    const update = await aliceTab.next((f) => f.ch === 'balance' && f.m.value === 750);
    expect(update).toEqual({ ch: 'balance', t: 'update', m: { value: 750 } });
    await settle(bobTab);
    await settle(anonymous);
    expect(bobTab.on('balance').map((f) => f.m.value)).toEqual([300]);
    expect(anonymous.on('balance')).toEqual([]);
    expect((await checkConservation(t.ctx.db)).ok).toBe(true);
  });

  it('refuses a private channel to an anonymous socket and keeps it open', async () => {
    const anonymous = await connect();
    anonymous.subscribe('balance');
    const refusal = await anonymous.next((f) => f.ch === 'control' && f.t === 'error');
    expect(refusal.m).toEqual({ message: 'Sign in to follow this channel.', channel: 'balance' });
    await settle(anonymous);
  });

  it('drops a private event that names no user rather than broadcast it', async () => {
    const gina = await signedInUser(10);
    const tab = await connect({ cookie: gina.cookie });
    tab.subscribe('balance');
    await tab.next((f) => f.ch === 'balance');
    await t.bus.send({ ch: 'balance', t: 'update', m: { value: 999 } });
    await settle(tab);
    expect(tab.on('balance').map((f) => f.m.value)).toEqual([10]);
    expect((await checkConservation(t.ctx.db)).ok).toBe(true);
  });

  it('sends the current value at once on subscribe, and nothing after unsubscribe', async () => {
    const carol = await signedInUser(1234);
    await t.ctx.db.execute(sql`UPDATE users SET key_count = 3, loot_box_count = 2 WHERE id = ${carol.id}`);
    const tab = await connect({ cookie: carol.cookie });
    tab.subscribe('balance');
    tab.subscribe('keyCount');
    tab.subscribe('lootBoxCount');
    expect(await tab.next((f) => f.ch === 'balance')).toEqual({ ch: 'balance', t: 'update', m: { value: 1234 } });
    expect(await tab.next((f) => f.ch === 'keyCount')).toEqual({ ch: 'keyCount', t: 'update', m: { value: 3 } });
    expect((await tab.next((f) => f.ch === 'lootBoxCount')).m).toEqual({ value: 2 });

    tab.unsubscribe('balance');
    await settle(tab);
    await credit(carol.id, 100);
    await sleep(100);
    await settle(tab);
    expect(tab.on('balance').map((f) => f.m.value)).toEqual([1234]);
    expect((await checkConservation(t.ctx.db)).ok).toBe(true);
  });
});

describe('public channels', () => {
  it('reach every subscriber, signed in or not, and never carry the user id', async () => {
    const dave = await signedInUser();
    const signedIn = await connect({ cookie: dave.cookie });
    const anonymous = await connect();
    const elsewhere = await connect();
    signedIn.subscribe('picture');
    anonymous.subscribe('picture');
    elsewhere.subscribe('chat');
    await Promise.all([signedIn, anonymous, elsewhere].map(settle));

    const fund = { pictureId: 7, authorFund: true, fundAmount: 5, fundOn: '2026-11-22T10:00:00.000Z' };
    await t.bus.send(liveEvent('picture', 'fund', fund));

    for (const tab of [signedIn, anonymous]) {
      expect(await tab.next((f) => f.ch === 'picture')).toEqual({ ch: 'picture', t: 'fund', m: fund });
    }
    await settle(elsewhere);
    expect(elsewhere.on('picture')).toEqual([]);
  });

  it('sends an event naming a user only to that user, even on a public channel', async () => {
    const erin = await signedInUser();
    const frank = await signedInUser();
    const erinTab = await connect({ cookie: erin.cookie });
    const frankTab = await connect({ cookie: frank.cookie });
    erinTab.subscribe('market');
    frankTab.subscribe('market');
    await Promise.all([erinTab, frankTab].map(settle));

    await t.bus.send({ ch: 'market', t: 'marketItem', m: { value: 1 }, userId: erin.id } as never);

    const frame = await erinTab.next((f) => f.ch === 'market');
    expect(frame).toEqual({ ch: 'market', t: 'marketItem', m: { value: 1 } });
    await settle(frankTab);
    expect(frankTab.on('market')).toEqual([]);
  });
});

describe('the fan-out (docs/decisions.md "Issue 28: chat fan-out")', () => {
  it('negotiates no extension, so each socket is written whole prepared frames, never compressed ones', async () => {
    const tab = await connect(); // ws offers permessage-deflate by default
    expect(tab.socket.extensions).toBe('');
  });

  it('sends what arrives in one tick together, in the order it was sent', async () => {
    const hana = await signedInUser(40);
    const tab = await connect({ cookie: hana.cookie });
    tab.subscribe('picture');
    tab.subscribe('balance');
    await tab.next((f) => f.ch === 'balance' && f.m.value === 40);
    const fund = (pictureId: number) =>
      liveEvent('picture', 'fund', { pictureId, authorFund: false, fundAmount: 1, fundOn: 'x' });
    void t.bus.send(fund(1));
    void t.bus.send(liveEvent('balance', 'update', { value: 41 }, audience.user(hana.id)));
    void t.bus.send(fund(2));
    void t.bus.send(fund(3));
    await tab.next((f) => f.ch === 'picture' && f.m.pictureId === 3);
    expect(tab.frames.slice(-4).map((f) => `${f.ch}:${String(f.m.pictureId ?? f.m.value)}`)).toEqual([
      'picture:1',
      'balance:41',
      'picture:2',
      'picture:3',
    ]);
  });
});

describe('a sloppy or hostile client', () => {
  it('gets an error for each malformed frame and keeps its connection', async () => {
    const tab = await connect();
    const bad = [
      'not json',
      '[1,2]',
      'null',
      { ch: 'balance', t: 'update', m: { value: 1 } },
      { ch: 'control', t: 'dance', m: {} },
      { ch: 'control', t: 'subscribe' },
      { ch: 'control', t: 'subscribe', m: { channel: 42 } },
      { ch: 'control', t: 'subscribe', m: { channel: 'x'.repeat(500) } },
      { ch: 'control', t: 'subscribe', m: { channel: 'control' } },
    ];
    for (const frame of bad) tab.send(frame);
    tab.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    await settle(tab);
    expect(tab.on('control').filter((f) => f.t === 'error')).toHaveLength(bad.length + 1);
    expect(tab.closeCode).toBeUndefined();
  });

  it('may follow at most 64 channels at once', async () => {
    const tab = await connect();
    for (let i = 0; i < 65; i++) tab.subscribe(`room${i}`);
    await settle(tab);
    const errors = tab.on('control').filter((f) => f.t === 'error');
    expect(errors.map((f) => f.m)).toEqual([{ message: 'Too many channels on one connection.', channel: 'room64' }]);
  });

  it('is slowed down, not dropped, when it floods the server with frames', async () => {
    const tab = await connect();
    for (let i = 0; i < 400; i++) tab.subscribe('picture');
    await sleep(200);
    await settle(tab);
    expect(tab.on('control').some((f) => f.m.message === 'Too many messages; slow down.')).toBe(true);
    expect(tab.closeCode).toBeUndefined();
  });

  it('is refused when its page is on another site', async () => {
    const user = await signedInUser();
    await expect(connect({ cookie: user.cookie, origin: 'https://evil.example' })).rejects.toThrow('refused with 403');
    await expect(connect({ cookie: user.cookie, origin: 'not a url' })).rejects.toThrow('refused with 403');
  });

  it('is let in without an Origin header (not a browser)', async () => {
    const noOrigin = await connect({ origin: '' });
    await settle(noOrigin);
  });

  it('is dropped when it stops reading and its unsent frames pass 1 MiB', async () => {
    const slow = await connect();
    const fast = await connect();
    slow.subscribe('picture');
    fast.subscribe('picture');
    await Promise.all([slow, fast].map(settle));
    const raw = (slow.socket as unknown as { _socket: import('node:net').Socket })._socket;
    raw.pause();

    const big = { pictureId: 1, authorFund: false, fundAmount: 0, fundOn: 'x'.repeat(60_000) };
    for (let i = 0; i < 300; i++) {
      await t.bus.send(liveEvent('picture', 'fund', { ...big, pictureId: i }));
      await sleep(1);
      // A reader that keeps up: at most five frames (300 KB) wait for it, however slow a loaded machine runs this test.
      if (i % 5 === 4) await fast.next((f) => f.ch === 'picture' && f.m.pictureId === i, 30_000);
    }
    raw.resume();

    expect(await slow.closed()).toBe(1006);
    expect(slow.on('picture').length).toBeLessThan(300);
  });

  it('is dropped when it stops answering pings', async () => {
    const vanished = await connect({ autoPong: false });
    const healthy = await connect();
    expect(await vanished.closed(HEARTBEAT_MS * 10)).toBe(1006);
    await sleep(HEARTBEAT_MS * 3);
    await settle(healthy);
  });
});

describe('signing out', () => {
  it("closes the sockets of that session only, so they stop hearing the user's balance", async () => {
    const user = await makeUser(t.ctx, { balance: 100 });
    const phone = await signIn(t, user.id);
    const desktop = await signIn(t, user.id);
    const phoneTab = await connect({ cookie: phone.cookieHeader() });
    const desktopTab = await connect({ cookie: desktop.cookieHeader() });
    for (const tab of [phoneTab, desktopTab]) tab.subscribe('balance');
    await Promise.all([phoneTab, desktopTab].map(settle));

    expect((await phone.post('/api/auth/logout')).statusCode).toBe(200);

    expect(await phoneTab.closed()).toBe(4001);
    await credit(user.id, 50);
    await desktopTab.next((f) => f.ch === 'balance' && f.m.value === 150);
  });

  it("sends an event for one session to that session's sockets only", async () => {
    const user = await makeUser(t.ctx);
    const phone = await signIn(t, user.id);
    const desktop = await signIn(t, user.id);
    const phoneTab = await connect({ cookie: phone.cookieHeader() });
    const desktopTab = await connect({ cookie: desktop.cookieHeader() });
    for (const tab of [phoneTab, desktopTab]) tab.subscribe('balance');
    await Promise.all([phoneTab, desktopTab].map(settle));

    const session = hashToken(phone.cookies.get(SESSION_COOKIE)!);
    await t.bus.send(liveEvent('balance', 'update', { value: 7 }, audience.session(user.id, session)));
    await phoneTab.next((f) => f.ch === 'balance' && f.m.value === 7);
    await settle(desktopTab);
    expect(desktopTab.on('balance').filter((f) => f.m.value === 7)).toEqual([]);
  });
});

describe('an app behind its public URL', () => {
  it('lets in pages from the public URL and closes every socket with 1001 (going away) when it stops', async () => {
    const other = await startTestApp({ env: { PUBLIC_URL: 'https://wall.example' } });
    const url = await other.app.listen({ port: 0, host: '127.0.0.1' });
    const tab = await LiveTestClient.open(url, { origin: 'https://wall.example' });
    tab.subscribe('picture');
    await settle(tab);
    await other.close();
    expect(await tab.closed()).toBe(1001);
  });
});
