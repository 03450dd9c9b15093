import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSentinelCluster, type SentinelCluster } from '../../../scripts/cluster/sentinel';
import { creditTopUp } from '../ledger/commands';
import type { RunningServer } from '../server';
import { missingRealServices } from '../test/databases';
import { makeUser, signIn } from '../test/factories';
import { TestClient, type TestApp } from '../test/harness';
import { startTwoInstances, type TwoInstances } from '../test/two-instances';
import { LiveTestClient, settle, sleep, type Frame } from './live-test-client';

/**
 * Redis high availability (issue 25, item 2; docs/scaling.md, "Redis failover"): two instances reach Redis through
 * three Sentinels of this test's own (a primary, a replica, quorum 2). The primary is killed; Sentinel promotes the
 * replica, and the instances follow by themselves: every socket is told to resync, live events cross instances
 * again, and the shared sign-in throttle counts in the new master.
 */

/*
 * CI runs this file in the cluster chaos job, after the chaos run and never beside it (.ci/run): both start Redis
 * with Sentinels and kill the primary, and side by side on two cores neither failover kept its timing. The unit
 * runs there leave it out with SENTINEL_TESTS_APART=1; anywhere else it runs with the rest.
 */
const apart = process.env.SENTINEL_TESTS_APART === '1';
if (apart) console.log('redis-failover.test.ts: left to the cluster chaos job of CI (SENTINEL_TESTS_APART=1)');
const skip = apart || missingRealServices({ postgres: true, redisServer: true });
const LIMIT = 3;
/** Beside the other CI jobs on two cores, the resync may follow the first delivered update by seconds. */
const RESYNC_WITHIN = 20_000;
const isResync = (f: Frame) => f.ch === 'control' && f.t === 'resync';

describe.skipIf(skip)('two instances on Redis through Sentinel, across a failover', () => {
  let dir: string;
  let cluster: SentinelCluster;
  let pair: TwoInstances;
  let a: RunningServer;
  let b: RunningServer;
  const tabs: LiveTestClient[] = [];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wall-sentinel-'));
    cluster = await startSentinelCluster({ dir });
    pair = await startTwoInstances('sentinel', {
      config: {
        redisUrl: undefined,
        redisSentinels: { sentinels: cluster.sentinels.map(({ host, port }) => ({ host, port })), name: cluster.name },
        authRateLimit: 100,
        accountLoginLimit: LIMIT,
      },
    });
    ({ a, b } = pair);
  });

  afterAll(async () => {
    for (const tab of tabs) tab.close();
    await pair?.close();
    await cluster?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const cookieFor = async (server: RunningServer, userId: number) =>
    (await signIn(server as TestApp, userId, new TestClient(server))).cookieHeader();

  it('after the primary is killed, tells every socket to resync and carries balance updates across again', async () => {
    const alice = await makeUser(a.ctx, { balance: 100 });
    const onB = await LiveTestClient.open(pair.urlB, { cookie: await cookieFor(b, alice.id) });
    const onA = await LiveTestClient.open(pair.urlA, { cookie: await cookieFor(a, alice.id) });
    tabs.push(onA, onB);
    for (const tab of [onA, onB]) tab.subscribe('balance');
    await Promise.all([onA, onB].map((tab) => tab.next((f) => f.ch === 'balance' && f.m.value === 100)));

    // Through Sentinel, before any failover: a credit on A reaches the socket on B.
    await a.ctx.transact((w) => creditTopUp(w, alice.id, 400, 'sentinel-before'));
    await onB.next((f) => f.ch === 'balance' && f.m.value === 500);
    await Promise.all([onA, onB].map(settle));
    const framesAtKill = [onA.frames.length, onB.frames.length];

    const old = cluster.primary;
    const killedAt = Date.now();
    await old.stop('SIGKILL');

    // Credits keep being made on A (those meeting the switch lose their live event, never their money); the
    // first one whose update reaches B after the kill says live events flow again.
    let balance = 500;
    let deliveredAt: number | undefined;
    for (let i = 0; deliveredAt === undefined && Date.now() - killedAt < 15_000; i++) {
      await a.ctx.transact((w) => creditTopUp(w, alice.id, 1, `sentinel-after-${i}`));
      balance += 1;
      const expected = balance;
      try {
        await onB.next((f) => f.ch === 'balance' && f.m.value === expected, 500, framesAtKill[1]);
        deliveredAt = Date.now();
      } catch {
        // not yet: Sentinel is still promoting, or the instances are still reconnecting
      }
    }
    const master = await cluster.currentMaster();
    console.log(
      `Redis failover: a balance update crossed instances again ${deliveredAt! - killedAt} ms after the primary's kill`,
    );
    expect(deliveredAt! - killedAt).toBeLessThan(15_000);
    expect(master.port).toBe(cluster.replica.port);
    // Both instances lost their subscription, so the sockets on both were told to refetch once they listen again
    // (a connection ioredis left stuck is made again after five heartbeats, 10 s: redis-bus.ts).
    expect(await onA.next(isResync, RESYNC_WITHIN, framesAtKill[0])).toEqual({ ch: 'control', t: 'resync', m: {} });
    expect(await onB.next(isResync, RESYNC_WITHIN, framesAtKill[1])).toEqual({ ch: 'control', t: 'resync', m: {} });
    // The sockets stayed open, and once both instances listen again, an update reaches both of them.
    expect([onA.closeCode, onB.closeCode]).toEqual([undefined, undefined]);
    await a.ctx.transact((w) => creditTopUp(w, alice.id, 1, 'sentinel-settled'));
    for (const tab of [onA, onB]) await tab.next((f) => f.ch === 'balance' && f.m.value === balance + 1, 10_000);
  });

  /** The throttle's counts on the master the Sentinels name now: the highest of them. */
  async function highestCountOnMaster(): Promise<number> {
    const master = await cluster.currentMaster();
    const redis = new Redis({ host: master.host, port: master.port, lazyConnect: true });
    try {
      await redis.connect();
      const keys = await redis.keys(`${a.ctx.config.redisChannel}:limits:*`);
      const counts = await Promise.all(keys.map(async (k) => Number(await redis.hget(k, 'c'))));
      return Math.max(0, ...counts);
    } finally {
      redis.disconnect();
    }
  }

  /**
   * Guesses a fresh account's password on A, B, A, B: what each answered. An instance whose call met the failover
   * counts in the database until its probe (every second) finds Redis again (modules/limits/fallback-counters.ts),
   * and folds those counts in then; until both instances are back, one may count apart from the other.
   */
  async function guessesAcross(tag: string): Promise<number[]> {
    const username = `${tag}_${process.pid % 1000}_${Math.random().toString(36).slice(2, 6)}`;
    const owner = { username, password: 'secret123', email: `${username}@example.test`, currentPath: '/' };
    const call = (server: RunningServer, ip: string, url: string, payload: object) =>
      new TestClient(server).request({ method: 'POST', url, payload, remoteAddress: ip });
    expect((await call(a, '192.0.2.1', '/api/auth/register', owner)).statusCode).toBe(200);
    const statuses: number[] = [];
    for (const [i, server] of [a, b, a, b].entries()) {
      const res = await call(server, `198.51.100.${i}`, '/api/auth/login/basic', { username, password: 'guess1234' });
      statuses.push(res.statusCode);
    }
    return statuses;
  }

  /** Within 15 s of a failover, a throttle counted across both instances holds: the fourth guess is refused. */
  async function throttleHoldsAcross(tag: string): Promise<void> {
    const until = Date.now() + 15_000;
    let statuses = await guessesAcross(tag);
    while (statuses[3] !== 429 && Date.now() < until) {
      await sleep(500);
      statuses = await guessesAcross(tag);
    }
    expect(statuses).toEqual([400, 400, 400, 429]);
    // Counts made while an instance was still finding the new master went to the database and are folded in.
    for (let i = 0; i < 50 && (await highestCountOnMaster()) < LIMIT; i++) await sleep(100);
    expect(await highestCountOnMaster()).toBeGreaterThanOrEqual(LIMIT);
  }

  it('after the failover, the sign-in throttle holds across instances and counts in the new master', async () => {
    await throttleHoldsAcross('sentinel');
  });

  it('follows a planned switchover back to the old primary, brought back as a replica, without a restart', async () => {
    const old = cluster.primary;
    await cluster.rejoin(old); // empty, a replica of the new master, which it copies
    const tab = await LiveTestClient.open(pair.urlA);
    tabs.push(tab);
    tab.subscribe('picture');
    await settle(tab);
    const from = tab.frames.length;

    // The master is demoted while alive: a client left on it would meet READONLY on every write.
    const master = await cluster.failover();
    expect(master.port).toBe(old.port);
    await tab.next(isResync, 10_000, from);

    // Both instances write to the new master: a sign-in throttle counted across them lands there.
    await throttleHoldsAcross('switch');
  });
});
