import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, repoRoot } from '../../server/src/test/server-process';
import { processAlive } from './ports';
import { SiteClient } from './site-client';
import type { ClusterDescription, Component } from './topology';

/**
 * `npm run cluster -- --ha` as an operator (and an outside check) runs it: the command, its `CLUSTER {json}` line and
 * file, the PostgreSQL primary's node lost through the pids that file lists, and Ctrl-C (docs/operations.md).
 */
describe('npm run cluster -- --ha', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wall-cluster-cli-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'cluster.json');
  const read = () => JSON.parse(fs.readFileSync(file, 'utf8')) as ClusterDescription;
  const named = (d: ClusterDescription, name: string) => d.components.find((c) => c.name === name)!;
  const pidsOf = (c: Component) => c.pids ?? [c.pid!];

  it('prints CLUSTER {json} once healthy; a kill -9 of the primary node loses no acknowledged top-up, the standby takes over and the file says so; SIGINT stops everything', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/cluster/run.ts', '--ha'], {
      cwd: repoRoot,
      env: { ...process.env, PORT: String(port), CLUSTER_DIR: dir, CLUSTER_INSTANCES: '1', SERVE_WEB: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const line = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += d;
        const found = out.split('\n').find((l) => l.startsWith('CLUSTER '));
        if (found && out.includes(`${found}\n`)) resolve(found);
      });
      void exited.then((code) => reject(new Error(`npm run cluster exited with ${code}:\n${err}`)));
    });

    const described = JSON.parse(line.slice('CLUSTER '.length)) as ClusterDescription;
    expect(read()).toEqual(described);
    expect(described.url).toBe(`http://127.0.0.1:${port}`);
    expect(described.components.map((c) => c.name)).toEqual([
      'haproxy',
      'app-1',
      'pgbouncer',
      'haproxy-postgres',
      'postgres-1',
      'postgres-2',
      'etcd-1',
      'redis-1',
      'redis-2',
      'sentinel-1',
      'sentinel-2',
      'sentinel-3',
      's3',
    ]);
    expect([named(described, 'redis-1').role, named(described, 'redis-2').role]).toEqual(['primary', 'replica']);
    expect(described.env.REDIS_SENTINELS).toBeTruthy();
    expect(described.env.REDIS_URL).toBeUndefined();
    expect([named(described, 'postgres-1').role, named(described, 'postgres-2').role]).toEqual(['primary', 'replica']);
    // Patroni and its postmaster: the node is both.
    expect(named(described, 'postgres-1').pids).toHaveLength(2);
    expect((await fetch(`${described.url}/api/health`)).status).toBe(200);

    // Commits wait for the standby: synchronous_standby_names names it, and it streams as `sync`.
    const primary = new pg.Client({
      connectionString: `postgres://postgres@127.0.0.1:${named(described, 'postgres-1').port}/wall`,
    });
    await primary.connect();
    const sync = await primary.query<{ sync_state: string }>('SELECT sync_state FROM pg_stat_replication');
    expect(sync.rows.map((r) => r.sync_state)).toEqual(['sync']);
    await primary.end();

    // Top-ups go on while the primary's node dies; each payment is retried with its own key until it answers 200.
    const b = new SiteClient(described.url);
    await b.signUp(`ha${Date.now().toString(36)}`);
    let acknowledged = 0;
    let traffic = true;
    let firstAfterKill: number | undefined;
    let killedAt = Number.POSITIVE_INFINITY;
    const payer = async () => {
      while (traffic) {
        const started = Date.now();
        const id = await retrying(() => b.checkout(100));
        const key = randomUUID();
        for (;;) {
          const res = await b.pay(id, key).catch(() => undefined);
          if (res?.status === 200) break;
          await sleep(250);
        }
        acknowledged += 100;
        // The first payment begun after the kill to be answered: writes work again.
        if (started > killedAt) firstAfterKill ??= Date.now() - killedAt;
      }
    };
    const payers = [payer(), payer()];
    await sleep(2_000);
    const appPid = named(read(), 'app-1').pid;
    killedAt = Date.now();
    for (const pid of pidsOf(named(read(), 'postgres-1'))) process.kill(pid, 'SIGKILL');

    // The standby is promoted, and the file says so, within 30 s.
    while (named(read(), 'postgres-2').role !== 'primary' && Date.now() - killedAt < 30_000) await sleep(250);
    expect(named(read(), 'postgres-2').role).toBe('primary');
    while (firstAfterKill === undefined && Date.now() - killedAt < 30_000) await sleep(250);
    expect(firstAfterKill).toBeLessThan(30_000);
    console.log(`writes answered again ${((firstAfterKill ?? 0) / 1000).toFixed(1)} s after the kill`);
    await sleep(1_000);
    traffic = false;
    await Promise.all(payers);

    // Every acknowledged cent is there, and the instance did not need a restart.
    const profile = await b.call('GET', '/api/user/profile');
    expect(profile.status).toBe(200);
    expect(((await profile.json()) as { balance: number }).balance).toBe(acknowledged);
    expect(named(read(), 'app-1').pid).toBe(appPid);
    expect(processAlive(appPid!)).toBe(true);

    const all = read().components.flatMap(pidsOf);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    const left = () => all.filter(processAlive);
    for (let i = 0; i < 100 && left().length > 0; i++) await sleep(200);
    expect(left()).toEqual([]);
  }, 300_000);
});

/** A call that needs the database, tried again while it cannot answer (the failover's seconds). */
async function retrying<T>(call: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await call();
    } catch (err) {
      if (i > 200) throw err;
      await sleep(250);
    }
  }
}
