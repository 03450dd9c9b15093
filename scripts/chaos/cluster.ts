import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { runAdmin } from '../../server/src/test/admin-command';
import { freePort } from '../../server/src/test/server-process';
import { PostgresCluster } from '../cluster/postgres';
import { SiteClient } from '../cluster/site-client';
import { Topology, type AppInstance } from '../cluster/topology';
import { LiveTestClient } from '../../server/src/live/live-test-client';
import type { Step } from './disruptions';
import { CHAOS_APP_ENV, HttpTarget } from './instances';
import type { ChaosSetup } from './setup';
import type { Check } from './traffic';

/**
 * The chaos run against the cluster (`npm run chaos -- --cluster`): `npm run cluster -- --ha`'s topology, two
 * instances behind HAProxy, PostgreSQL as a Patroni pair with a synchronous standby, the images in the S3 server. The
 * traffic goes through HAProxy as people's does. The steps are those of losing machines (docs/operations.md,
 * "Failover"), and a backup taken meanwhile, restored at the end into a new server; for each kill the report gives
 * the time until writes work again.
 */
export async function startCluster(workDir: string, say: (line: string) => void): Promise<ChaosSetup> {
  const dir = path.join(workDir, 'cluster');
  fs.mkdirSync(dir, { mode: 0o755 });
  const port = await freePort();
  // HAProxy's address is the site people use: the cash host of top-ups; any other Host is a charity host.
  const env = { ...CHAOS_APP_ENV, CASH_HOSTS: `127.0.0.1:${port},localhost:${port}` };
  const topology = await Topology.start({ dir, port, instances: 2, web: false, ha: true, env }, say);
  const proxy = new HttpTarget('haproxy', topology.url, path.join(dir, 'haproxy'));
  const instances = topology.instances.map(
    (i) =>
      new HttpTarget(
        i.name,
        `http://127.0.0.1:${i.port}`,
        `${i.name}'s output`,
        () => i.process.child.exitCode === null,
      ),
  );
  const restarts: string[] = [];
  const backup = path.join(workDir, 'backup');
  // The admin command's own DATA_DIR; the images are in the bucket.
  const adminEnv = { ...topology.env, DATA_DIR: path.join(workDir, 'admin') };
  say(`cluster up: ${topology.roleSummary()}`);
  return {
    targets: [proxy],
    instances,
    databaseUrl: topology.pair!.url,
    steps: plan(topology, instances, restarts, backup, adminEnv),
    checks: async () => [
      ...(await clusterChecks(topology, restarts)),
      await restoresIntoFreshServer(adminEnv, backup, workDir),
    ],
    stop: () => topology.stop(),
  };
}

/** The backup taken under traffic, restored into a new, empty PostgreSQL server: its ledger check must be ok. */
async function restoresIntoFreshServer(
  adminEnv: Record<string, string>,
  backup: string,
  workDir: string,
): Promise<Check> {
  const name = 'a backup taken under traffic restores into a fresh PostgreSQL whose ledger check is ok';
  if (!fs.existsSync(path.join(backup, 'manifest.json'))) return { name, ok: false, detail: 'no backup was taken' };
  const fresh = await PostgresCluster.create(workDir, 'restored');
  try {
    const env = { ...adminEnv, DATABASE_URL: fresh.url, DATABASE_DIRECT_URL: '', DATABASE_READ_URL: '' };
    const { code, stdout } = await runAdmin(['restore', '--from', backup], env);
    const ledger = /Ledger check: \S+/.exec(stdout)?.[0] ?? 'no ledger check printed';
    return { name, ok: code === 0 && ledger === 'Ledger check: ok', detail: `restore exited ${code}; ${ledger}` };
  } finally {
    await fresh.destroy();
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function plan(
  topology: Topology,
  instances: HttpTarget[],
  restarts: string[],
  backup: string,
  adminEnv: Record<string, string>,
): Step[] {
  const [one, two] = topology.instances as [AppInstance, AppInstance];
  const pair = topology.pair!;
  /** Until every instance answers /api/health 200 (`true`: it needs a primary it can write to), or the reverse. */
  const healthy = async (want: boolean, ms = 300_000) => {
    for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(100)) {
      const statuses = await Promise.all(instances.map((i) => i.health()));
      if (statuses.every((s) => s === 200) === want) return;
    }
  };
  return [
    {
      at: 0.1,
      what: `kill -9 instance ${two.name}, start it again`,
      act: () => topology.restartInstance(two, 'SIGKILL'),
    },
    {
      at: 0.25,
      what: "kill -9 the PostgreSQL primary's node (Patroni and its postmaster), bring it back as the standby",
      act: async () => {
        await pair.refreshRoles();
        const primary = pair.primary();
        if (!primary) throw new Error('no primary to kill');
        const before = topology.instances.map((i) => i.process.child.pid);
        const killed = Date.now();
        primary.kill();
        // The instances notice at their next query; from then on, until all of them write again.
        await healthy(false, 5_000);
        await healthy(true);
        const writesBack = Date.now() - killed;
        const after = topology.instances.map((i) => i.process.child.pid);
        if (after.some((pid, n) => pid !== before[n])) restarts.push('an instance was restarted during the failover');
        primary.start();
        await primary.waitFor('replica', 180_000);
        await primary.waitForSync();
        await pair.refreshRoles();
        return `writes answered again ${seconds(writesBack)} after the kill; ${primary.name} the synchronous standby again after ${seconds(Date.now() - killed)} (${topology.roleSummary()})`;
      },
    },
    {
      at: 0.35,
      what: 'kill -9 the Redis primary, let the Sentinels promote its replica, bring it back as the replica',
      act: () => killRedisPrimary(topology),
    },
    {
      at: 0.45,
      what: 'take a backup under traffic (npm run admin -- backup)',
      act: async () => {
        const started = Date.now();
        const { code, stdout, stderr } = await runAdmin(['backup', '--out', backup], adminEnv);
        if (code !== 0) throw new Error(`backup exited ${code}:\n${stdout}${stderr}`);
        return `taken in ${seconds(Date.now() - started)}`;
      },
    },
    {
      at: 0.6,
      what: 'stop the S3 server for 10 s, start it',
      act: async () => {
        await topology.s3.stop();
        await sleep(10_000);
        await topology.s3.start();
      },
    },
    {
      at: 0.75,
      what: `SIGTERM instance ${one.name} (a rolling restart: it drains), start it again`,
      act: () => topology.restartInstance(one, 'SIGTERM'),
    },
  ];
}

/**
 * The Redis primary dies. Sockets on both instances (HAProxy spreads them) watch a user's balance; after the kill
 * the user tops up until every socket has heard the new balance or been told to resync (issue 25's check).
 */
async function killRedisPrimary(topology: Topology): Promise<string> {
  const redis = topology.sentinels!;
  const client = new SiteClient(topology.url);
  await client.signUp(`redis${Date.now().toString(36)}`);
  const sockets = await Promise.all(
    [...Array(4)].map(() => LiveTestClient.open(topology.url, { cookie: client.cookie })),
  );
  try {
    for (const socket of sockets) socket.subscribe('balance');
    const master = await redis.currentMaster();
    const node = [redis.primary, redis.replica].find((n) => n.port === master.port)!;
    const framesAtKill = sockets.map((s) => s.frames.length);
    const killed = Date.now();
    await node.stop('SIGKILL');
    const promoted = await redis.waitForFailover(master);
    const failedOver = Date.now() - killed;
    // A socket is caught up once it hears the new balance, or is told to resync (a client then refetches).
    let crossed: number | undefined;
    let topUps = 0;
    let lastError = 'none';
    let heard: boolean[] = [];
    while (crossed === undefined && Date.now() - killed < 90_000) {
      const balance = await client.topUp(100).catch((err: Error) => {
        lastError = err.message;
        return undefined;
      });
      if (balance === undefined) {
        await sleep(500);
        continue;
      }
      topUps++;
      heard = await Promise.all(
        sockets.map((s, n) =>
          s
            .next(
              (f) => (f.ch === 'balance' && f.m.value === balance) || (f.ch === 'control' && f.t === 'resync'),
              2_000,
              framesAtKill[n],
            )
            .then(
              () => true,
              () => false,
            ),
        ),
      );
      if (heard.every(Boolean)) crossed = Date.now() - killed;
    }
    if (crossed === undefined) {
      // What the run saw, to tell a lost subscription from failing top-ups or closed sockets.
      const state = sockets.map((s, n) => `${heard[n] ? 'caught up' : 'not caught up'}, closed ${s.closeCode ?? 'no'}`);
      throw new Error(
        `neither a balance update nor a resync reached every socket within 90 s of the Redis kill ` +
          `(${topUps} top-ups answered, last failure: ${lastError}; sockets: ${state.join('; ')})`,
      );
    }
    await redis.rejoin(node);
    await topology.refreshRoles();
    return `the Sentinels promoted port ${promoted.port} ${seconds(failedOver)} after the kill; every socket had the new balance or a resync ${seconds(crossed)} after it`;
  } finally {
    for (const socket of sockets) socket.close();
  }
}

/** What only the cluster can show: no instance restarted by a failover, and the images on every instance. */
async function clusterChecks(topology: Topology, restarts: string[]): Promise<Check[]> {
  const db = new pg.Client({ connectionString: topology.pair!.url });
  await db.connect();
  let ids: number[];
  try {
    const { rows } = await db.query<{ id: number }>(
      // Removed pictures answer 404 by design (the moderation actor removes some).
      'SELECT id FROM pictures WHERE removed_at IS NULL ORDER BY id DESC LIMIT 20',
    );
    ids = rows.map((r) => Number(r.id));
  } finally {
    await db.end();
  }
  const unreadable: string[] = [];
  for (const id of ids) {
    const detail = await fetch(`${topology.url}/api/pictures/${id}`);
    const url = ((await detail.json()) as { url?: string }).url;
    const answers = await Promise.all(
      topology.instances.map(async (i) => {
        const res = await fetch(`http://127.0.0.1:${i.port}${url}`);
        return {
          name: i.name,
          status: res.status,
          sha: createHash('sha256')
            .update(Buffer.from(await res.arrayBuffer()))
            .digest('hex'),
        };
      }),
    );
    const failed = answers.filter((a) => a.status !== 200).map((a) => `${a.name} ${a.status}`);
    if (!detail.ok || failed.length > 0 || new Set(answers.map((a) => a.sha)).size !== 1) {
      unreadable.push(`${id}: ${failed.join(', ') || 'different bytes'}`);
    }
  }
  return [
    {
      name: 'no instance needed a restart after the PostgreSQL failover',
      ok: restarts.length === 0,
      detail: restarts.join('; ') || 'each instance kept its process',
    },
    {
      name: 'images readable from every instance',
      ok: ids.length > 0 && unreadable.length === 0,
      detail: `the ${ids.length} newest pictures from ${topology.instances.length} instances; ${unreadable.length} differed or failed${unreadable.length ? `: ${unreadable.slice(0, 2).join('; ')}` : ''}`,
    },
  ];
}
