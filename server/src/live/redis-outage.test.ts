import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveEvent } from '../../../common/live';
import { loadConfig } from '../config';
import { MemoryMailer } from '../mail/mailer';
import { createServer, type RunningServer } from '../server';
import { freshPostgresDatabase, missingRealServices, realPostgresUrl, realRedisUrl } from '../test/databases';
import { makeUser, signIn } from '../test/factories';
import { TestClient, type TestApp } from '../test/harness';
import { startTcpProxy, type TcpProxy } from '../test/tcp-proxy';
import type { LiveEvent } from './bus';
import { LiveTestClient, settle, sleep, type Frame } from './live-test-client';
import { RedisBus } from './redis-bus';

function redisProxy(): Promise<TcpProxy> {
  const target = new URL(realRedisUrl!);
  return startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
}

const isResync = (f: Frame) => f.ch === 'control' && f.t === 'resync';
const quiet = { onError: () => {} };

describe.skipIf(missingRealServices({ postgres: true, redis: true }))('an instance that loses Redis', () => {
  const channel = `wall:live:test:${process.pid}:${randomBytes(4).toString('hex')}`;
  let drop: () => Promise<void>;
  let proxy: TcpProxy; // one instance's way to Redis, cut and restored while the shared Redis keeps running
  let a: RunningServer; // reaches Redis through the proxy
  let b: RunningServer; // reaches Redis directly
  let urlA: string;
  let urlB: string;
  const tabs: LiveTestClient[] = [];

  beforeAll(async () => {
    const pgdb = await freshPostgresDatabase(realPostgresUrl!);
    drop = pgdb.drop;
    proxy = await redisProxy();
    const config = (redisUrl: string) =>
      loadConfig({ PORT: '3000' }, { databaseUrl: pgdb.url, redisUrl, redisChannel: channel, serveWeb: false });
    a = await createServer(config(proxy.urlFor(realRedisUrl!)), { mailer: new MemoryMailer(), logger: false });
    b = await createServer(config(realRedisUrl!), { mailer: new MemoryMailer(), logger: false });
    urlA = await a.app.listen({ port: 0, host: '127.0.0.1' });
    urlB = await b.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const tab of tabs) tab.close();
    await a?.close();
    await b?.close();
    await proxy?.close();
    await drop?.();
  });

  async function tabOn(base: string, cookie?: string) {
    const tab = await LiveTestClient.open(base, { cookie });
    tabs.push(tab);
    return tab;
  }

  it('tells every socket on that instance to resync once its bus is back, since events were lost meanwhile', async () => {
    const user = await makeUser(a.ctx, { balance: 100 });
    const cookie = (await signIn(a as TestApp, user.id, new TestClient(a))).cookieHeader();
    const walls = [await tabOn(urlA), await tabOn(urlA, cookie)];
    const idle = await tabOn(urlA); // follows nothing, still shows data it may have missed
    const onB = await tabOn(urlB);
    for (const tab of [...walls, onB]) tab.subscribe('picture');
    walls[1]!.subscribe('balance');
    await Promise.all([...walls, idle, onB].map(settle));
    // What each tab heard from the cut on (beside other CI jobs a starved bus may have remade its connections, and
    // resynced, before it).
    const atCut = new Map([...walls, idle, onB].map((tab) => [tab, tab.frames.length]));
    const sinceCut = (tab: LiveTestClient) => tab.frames.slice(atCut.get(tab));

    await proxy.cut();
    const fund = { pictureId: 1, authorFund: true, fundAmount: 3, fundOn: '2026-11-22T12:00:00.000Z' };
    await b.bus.send(liveEvent('picture', 'fund', fund));
    await onB.next((f) => f.ch === 'picture');
    await sleep(300);
    for (const tab of [...walls, idle]) {
      expect(tab.on('picture')).toEqual([]); // lost: A was not listening
      expect(sinceCut(tab).filter(isResync)).toEqual([]); // and nothing said so yet
    }

    await proxy.restore();
    for (const tab of [...walls, idle]) {
      expect(await tab.next(isResync, 15_000, atCut.get(tab))).toEqual({ ch: 'control', t: 'resync', m: {} });
    }
    // The sockets stayed open with their subscriptions, and events flow again.
    const later = { ...fund, pictureId: 2 };
    await b.bus.send(liveEvent('picture', 'fund', later));
    for (const tab of walls)
      expect(await tab.next((f) => f.ch === 'picture')).toEqual({ ch: 'picture', t: 'fund', m: later });
    await Promise.all([...walls, idle, onB].map(settle));
    expect(walls.concat(idle).map((tab) => tab.closeCode)).toEqual([undefined, undefined, undefined]);
    // B never lost anything, so its sockets are not asked to refetch.
    expect(sinceCut(onB).filter(isResync)).toEqual([]);
  });
});

describe.skipIf(missingRealServices({ redis: true }))('a Redis bus that loses its connection', () => {
  const channel = `wall:live:test:${process.pid}:${randomBytes(4).toString('hex')}:bus`;

  it('hands its subscribers a resync when it is back, and every bus one when a publish of its own was lost', async () => {
    const proxy = await redisProxy();
    const cut = await RedisBus.connect(proxy.urlFor(realRedisUrl!), { channel, ...quiet });
    const other = await RedisBus.connect(realRedisUrl!, { channel, ...quiet });
    const heardByCut: LiveEvent[] = [];
    const heardByOther: LiveEvent[] = [];
    cut.subscribe((e) => heardByCut.push(e));
    other.subscribe((e) => heardByOther.push(e));
    const resync = { ch: 'control', t: 'resync', m: {} };
    try {
      await proxy.cut();
      // Once the publisher knows it is cut off (a command written just before would be sent again on reconnect)...
      const publisher = (cut as unknown as { publisher: { status: string } }).publisher;
      for (let i = 0; i < 500 && publisher.status === 'ready'; i++) await sleep(10);
      // ...a publish is refused when the connection's retries are spent: this event never reached anyone.
      await expect(
        cut.send(liveEvent('picture', 'fund', { pictureId: 9, authorFund: false, fundAmount: 1, fundOn: 'x' })),
      ).rejects.toThrow();
      await proxy.restore();
      for (let i = 0; i < 750 && (heardByCut.length === 0 || heardByOther.length === 0); i++) await sleep(20);
      await sleep(200);
      // Its own subscription came back (a resync for this instance) and its lost publish is announced to all.
      expect(heardByCut).toContainEqual(resync);
      expect(heardByCut.every((e) => e.ch === 'control' && e.t === 'resync')).toBe(true);
      expect(heardByOther).toEqual([resync]);
    } finally {
      await Promise.all([cut.close(), other.close()]);
      await proxy.close();
    }
  });
});
