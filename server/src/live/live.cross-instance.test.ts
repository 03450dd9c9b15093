import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { liveEvent } from '../../../common/live';
import { creditTopUp } from '../ledger/commands';
import { checkConservation } from '../ledger/conservation';
import type { RunningServer } from '../server';
import { missingRealServices, realRedisUrl } from '../test/databases';
import { startTwoInstances, type TwoInstances } from '../test/two-instances';
import { makeUser, signIn } from '../test/factories';
import { TestClient, type TestApp } from '../test/harness';
import type { LiveEvent } from './bus';
import { LiveTestClient, settle, sleep } from './live-test-client';
import { RedisBus } from './redis-bus';

const skip = missingRealServices({ postgres: true, redis: true });
/** A channel of this run's own, so parallel runs sharing one Redis never hear each other. */
const channel = `wall:live:test:${process.pid}:${randomBytes(4).toString('hex')}`;

describe.skipIf(skip)('two app instances sharing PostgreSQL and Redis', () => {
  let pair: TwoInstances;
  let a: RunningServer;
  let b: RunningServer;
  let urlA: string;
  let urlB: string;
  const tabs: LiveTestClient[] = [];

  beforeAll(async () => {
    pair = await startTwoInstances('live');
    ({ a, b, urlA, urlB } = pair);
  });

  afterAll(async () => {
    for (const tab of tabs) tab.close();
    await pair?.close();
  });

  async function tabOn(base: string, cookie?: string) {
    const tab = await LiveTestClient.open(base, { cookie });
    tabs.push(tab);
    return tab;
  }

  /** signIn only needs the context and a cookie jar, which a running server has. */
  const cookieFor = async (server: RunningServer, userId: number) =>
    (await signIn(server as TestApp, userId, new TestClient(server))).cookieHeader();

  it('delivers a credit committed on A to the balance subscriber on B, once, and to nobody else', async () => {
    const alice = await makeUser(a.ctx, { balance: 100 });
    const bob = await makeUser(a.ctx, { balance: 50 });
    const aliceOnB = await tabOn(urlB, await cookieFor(b, alice.id));
    const aliceOnA = await tabOn(urlA, await cookieFor(a, alice.id));
    const bobOnB = await tabOn(urlB, await cookieFor(b, bob.id));
    for (const tab of [aliceOnB, aliceOnA, bobOnB]) tab.subscribe('balance');
    await aliceOnB.next((f) => f.ch === 'balance' && f.m.value === 100);
    await aliceOnA.next((f) => f.ch === 'balance' && f.m.value === 100);
    await bobOnB.next((f) => f.ch === 'balance' && f.m.value === 50);

    await a.ctx.transact((w) => creditTopUp(w, alice.id, 400, 'cross-instance-1'));

    expect(await aliceOnB.next((f) => f.ch === 'balance' && f.m.value === 500)).toEqual({
      ch: 'balance',
      t: 'update',
      m: { value: 500 },
    });
    await aliceOnA.next((f) => f.ch === 'balance' && f.m.value === 500);
    await sleep(200); // a second copy, if any, would come right behind the first
    await Promise.all([aliceOnA, aliceOnB, bobOnB].map(settle));
    expect(aliceOnB.on('balance').map((f) => f.m.value)).toEqual([100, 500]);
    expect(aliceOnA.on('balance').map((f) => f.m.value)).toEqual([100, 500]);
    expect(bobOnB.on('balance').map((f) => f.m.value)).toEqual([50]);
    expect((await checkConservation(a.ctx.db)).ok).toBe(true);
  });

  it('delivers a public event raised on B to an anonymous subscriber on A', async () => {
    const watcher = await tabOn(urlA);
    watcher.subscribe('picture');
    await settle(watcher);
    const fund = { pictureId: 1, authorFund: true, fundAmount: 3, fundOn: '2026-11-22T11:00:00.000Z' };
    await b.bus.send(liveEvent('picture', 'fund', fund));
    expect(await watcher.next((f) => f.ch === 'picture')).toEqual({ ch: 'picture', t: 'fund', m: fund });
  });
});

describe.skipIf(missingRealServices({ redis: true }))('the Redis bus', () => {
  it('carries an event published on one connection to every subscriber, the publisher included, once', async () => {
    const one = await RedisBus.connect(realRedisUrl!, { channel });
    const two = await RedisBus.connect(realRedisUrl!, { channel });
    const elsewhere = await RedisBus.connect(realRedisUrl!, { channel: `${channel}:other` });
    try {
      const heardByOne: LiveEvent[] = [];
      const heardByTwo: LiveEvent[] = [];
      const heardElsewhere: LiveEvent[] = [];
      one.subscribe((e) => heardByOne.push(e));
      two.subscribe((e) => heardByTwo.push(e));
      elsewhere.subscribe((e) => heardElsewhere.push(e));
      const event = { ch: 'balance', t: 'update', m: { value: 42 }, userId: 7 } as LiveEvent;

      await one.send(event);
      for (let i = 0; i < 50 && heardByTwo.length === 0; i++) await sleep(20);
      await sleep(100);

      expect(heardByTwo).toEqual([event]);
      expect(heardByOne).toEqual([event]);
      expect(heardElsewhere).toEqual([]);
    } finally {
      await Promise.all([one.close(), two.close(), elsewhere.close()]);
    }
  });

  it('stops calling a handler once it unsubscribes', async () => {
    const bus = await RedisBus.connect(realRedisUrl!, { channel: `${channel}:unsubscribe` });
    try {
      const heard: LiveEvent[] = [];
      const off = bus.subscribe((e) => heard.push(e));
      off();
      await bus.send({ ch: 'picture', t: 'fund', m: {} } as LiveEvent);
      await sleep(150);
      expect(heard).toEqual([]);
    } finally {
      await bus.close();
    }
  });

  it('makes its connections again and resyncs its hub when it stops hearing itself, though no connection erred', async () => {
    const bus = await RedisBus.connect(realRedisUrl!, { channel: `${channel}:deaf`, heartbeatMs: 300 });
    try {
      const heard: LiveEvent[] = [];
      bus.subscribe((e) => heard.push(e));
      await sleep(400);
      expect(heard).toEqual([]); // its heartbeats come back and are nobody's business
      // Deaf without an error: the subscription is gone under a connection that stays up.
      await (bus as unknown as { subscriber: { unsubscribe(ch: string): Promise<unknown> } }).subscriber.unsubscribe(
        `${channel}:deaf`,
      );
      for (let i = 0; i < 100 && heard.length === 0; i++) await sleep(100);
      // A resync (one or more: on a loaded machine a slow heartbeat may count as missed once more).
      expect(heard.length).toBeGreaterThan(0);
      expect(heard.every((e) => e.ch === 'control' && e.t === 'resync')).toBe(true);
      // And it hears the channel again.
      const event = { ch: 'picture', t: 'fund', m: { id: 1 } } as unknown as LiveEvent;
      await bus.send(event);
      for (let i = 0; i < 20 && !heard.some((e) => e.ch === 'picture'); i++) await sleep(50);
      expect(heard.filter((e) => e.ch === 'picture')).toEqual([event]);
    } finally {
      await bus.close();
    }
  });

  it('makes a connection that gave up reconnecting again, and resyncs its hub', async () => {
    const bus = await RedisBus.connect(realRedisUrl!, { channel: `${channel}:stuck`, heartbeatMs: 100 });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const heard: LiveEvent[] = [];
      bus.subscribe((e) => heard.push(e));
      // A disconnect that is never retried: ioredis leaves the subscriber at 'end' for good.
      (bus as unknown as { subscriber: { disconnect(): void } }).subscriber.disconnect();
      for (let i = 0; i < 100 && heard.length === 0; i++) await sleep(100);
      expect(heard.length).toBeGreaterThan(0);
      expect(heard.every((e) => e.ch === 'control' && e.t === 'resync')).toBe(true);
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/not ready/));
      const event = { ch: 'picture', t: 'fund', m: { id: 2 } } as unknown as LiveEvent;
      await bus.send(event);
      for (let i = 0; i < 20 && !heard.some((e) => e.ch === 'picture'); i++) await sleep(50);
      expect(heard.filter((e) => e.ch === 'picture')).toEqual([event]);
    } finally {
      warn.mockRestore();
      await bus.close();
    }
  });

  it('refuses to start when Redis cannot be reached', async () => {
    await expect(RedisBus.connect('redis://127.0.0.1:1', { onError: () => {} })).rejects.toThrow(
      /Cannot reach Redis at redis:\/\/127\.0\.0\.1:1/,
    );
  });
});
