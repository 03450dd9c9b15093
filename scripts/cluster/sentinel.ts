import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { REDIS_SERVER } from '../../server/src/test/databases';
import { freePort } from '../../server/src/test/server-process';
import { ensurePrograms } from './packages';
import { accepts, stopChild } from './ports';
import { renderDeployFile } from './render';

const HOST = '127.0.0.1';

export interface SentinelClusterOptions {
  /** Where the configuration files (Sentinel rewrites its own), logs and working directories go. */
  dir: string;
  /** The master group's name (REDIS_SENTINEL_NAME). */
  name?: string;
  /** A primary silent this long is down for a Sentinel (deploy/redis-sentinel.conf). */
  downAfterMs?: number;
  failoverTimeoutMs?: number;
}

/**
 * One redis-server process (a data node or a Sentinel) from a configuration file under the cluster's directory. The
 * file stays, so `restart()` brings the node back as it was told to be last (Sentinel rewrites the data nodes' files
 * with `REPLICAOF` when it reconfigures them, and its own as it learns).
 */
export class RedisProcess {
  private child: ChildProcess | undefined;
  readonly host = HOST;

  constructor(
    /** `redis-1`, `redis-2`, `sentinel-1`…, as `cluster.json` names the components. */
    readonly name: string,
    readonly port: number,
    readonly configFile: string,
    private readonly sentinel: boolean,
  ) {}

  /** The running process's id (a new one after `restart()`), undefined once it is stopped or dead. */
  get pid(): number | undefined {
    const child = this.child;
    return child && child.exitCode === null && child.signalCode === null ? child.pid : undefined;
  }

  async start(): Promise<void> {
    const args = [this.configFile, ...(this.sentinel ? ['--sentinel'] : [])];
    this.child = spawn(REDIS_SERVER, args, { stdio: 'ignore' });
    for (let i = 0; i < 200 && !(await accepts(this.port)); i++) {
      if (this.pid === undefined) break;
      await sleep(25);
    }
    if (!(await accepts(this.port))) {
      throw new Error(`${this.name} did not start on port ${this.port} (see ${path.dirname(this.configFile)})`);
    }
  }

  /** SIGKILL by default: a machine lost, nothing kept (the data nodes keep nothing on disk anyway). */
  async stop(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (this.child) await stopChild(this.child, signal);
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }
}

export interface SentinelCluster {
  /** The node started as primary and the one started as its replica (their roles swap after a failover). */
  primary: RedisProcess;
  replica: RedisProcess;
  sentinels: RedisProcess[];
  /** The master group's name: REDIS_SENTINEL_NAME. */
  name: string;
  /** What the instances run with: REDIS_SENTINELS and REDIS_SENTINEL_NAME. */
  env: { REDIS_SENTINELS: string; REDIS_SENTINEL_NAME: string };
  /** The master as the Sentinels name it now (the first Sentinel that answers). */
  currentMaster(): Promise<{ host: string; port: number }>;
  /**
   * Resolves once a failover away from `from` has finished: the Sentinels name another master and it answers as
   * one. Rejects after `timeoutMs`.
   */
  waitForFailover(from: { port: number }, timeoutMs?: number): Promise<{ host: string; port: number }>;
  /**
   * Resolves once `node` is a replica in sync with the current master. After `node.restart()` of a killed primary,
   * the Sentinels make it one by themselves, some 8 s after they see it back as a master.
   */
  waitForReplica(node: RedisProcess, timeoutMs?: number): Promise<void>;
  /**
   * Brings a killed node back as a replica of the current master at once (as an operator does: `replicaof` in its
   * file before it starts) and resolves once it is in sync.
   */
  rejoin(node: RedisProcess, timeoutMs?: number): Promise<void>;
  /**
   * A planned switchover (`SENTINEL FAILOVER`): the replica is promoted while the master is alive, which is demoted.
   * Resolves with the new master once it answers as one.
   */
  failover(timeoutMs?: number): Promise<{ host: string; port: number }>;
  /** Stops every process (SIGKILL: nothing is kept on disk). */
  stop(): Promise<void>;
}

/**
 * A Redis primary, one replica and three Sentinels (quorum 2) of the project's own, as child processes of
 * Debian's redis-server on free ports, their files under `opts.dir` (docs/scaling.md, "Redis failover"). Resolves
 * once the replica is in sync and every Sentinel knows the replica and the two other Sentinels, so a kill of the
 * primary right away is failed over. `npm run cluster -- --ha` and the Sentinel test use it.
 */
export async function startSentinelCluster(opts: SentinelClusterOptions): Promise<SentinelCluster> {
  ensurePrograms({ [REDIS_SERVER]: 'redis-server' });
  const name = opts.name ?? 'wall';
  const dir = path.resolve(opts.dir);
  fs.mkdirSync(dir, { recursive: true });
  const started: RedisProcess[] = [];
  const stop = async () => {
    await Promise.all(started.map((p) => p.stop()));
  };
  try {
    const dataNode = async (n: number, replicaOf?: RedisProcess) => {
      const node = await writeDataNode(dir, `redis-${n}`, replicaOf);
      started.push(node);
      await node.start();
      return node;
    };
    const primary = await dataNode(1);
    const replica = await dataNode(2, primary);
    await waitUntil(() => replicaInSync(replica), 10_000, `${replica.name} to sync with ${primary.name}`);

    const sentinels: RedisProcess[] = [];
    for (let n = 1; n <= 3; n++) {
      const sentinel = await writeSentinel(dir, `sentinel-${n}`, {
        name,
        primary,
        downAfterMs: opts.downAfterMs ?? 1500,
        failoverTimeoutMs: opts.failoverTimeoutMs ?? 5000,
      });
      started.push(sentinel);
      sentinels.push(sentinel);
    }
    await Promise.all(sentinels.map((s) => s.start()));
    await waitUntil(
      async () => (await Promise.all(sentinels.map((s) => sentinelSeesAll(s, name)))).every(Boolean),
      20_000,
      'the Sentinels to know the replica and each other',
    );

    const currentMaster = async () => {
      let last: unknown;
      for (const sentinel of sentinels) {
        try {
          return await askMaster(sentinel, name);
        } catch (err) {
          last = err;
        }
      }
      throw new Error(`No Sentinel names a master for "${name}": ${(last as Error | undefined)?.message}`);
    };
    const waitForFailover = async (from: { port: number }, timeoutMs = 30_000) => {
      let master = { host: HOST, port: from.port };
      await waitUntil(
        async () => {
          master = await currentMaster().catch(() => master);
          return master.port !== from.port && (await roleOf(master.port)) === 'master';
        },
        timeoutMs,
        `a failover away from port ${from.port}`,
      );
      return master;
    };
    const waitForReplica = async (node: RedisProcess, timeoutMs = 30_000) => {
      await waitUntil(
        async () => (await roleOf(node.port)) === 'slave' && (await replicaInSync(node)),
        timeoutMs,
        `${node.name} to be a replica in sync`,
      );
    };
    return {
      primary,
      replica,
      sentinels,
      name,
      env: {
        REDIS_SENTINELS: sentinels.map((s) => `${s.host}:${s.port}`).join(','),
        REDIS_SENTINEL_NAME: name,
      },
      currentMaster,
      waitForFailover,
      waitForReplica,
      async rejoin(node, timeoutMs = 30_000) {
        const master = await currentMaster();
        await node.stop();
        const lines = fs.readFileSync(node.configFile, 'utf8').split('\n');
        const kept = lines.filter((line) => !/^\s*(replicaof|slaveof)\s/i.test(line) && line.trim() !== '');
        fs.writeFileSync(node.configFile, [...kept, `replicaof ${master.host} ${master.port}`].join('\n') + '\n');
        await node.start();
        await waitForReplica(node, timeoutMs);
      },
      async failover(timeoutMs = 30_000) {
        const from = await currentMaster();
        await command(sentinels[0]!.port, (r) => r.call('SENTINEL', 'failover', name));
        return waitForFailover(from, timeoutMs);
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** A data node's file: nothing on disk (the counters and pub/sub are short-lived), a replica of `replicaOf` if given. */
async function writeDataNode(dir: string, name: string, replicaOf?: RedisProcess): Promise<RedisProcess> {
  const port = await freePort();
  const home = path.join(dir, name);
  fs.mkdirSync(home, { recursive: true });
  const lines = [
    `port ${port}`,
    `bind ${HOST}`,
    `dir ${home}`,
    `logfile ${path.join(home, 'redis.log')}`,
    'save ""',
    'appendonly no',
    // Sentinel reaches the replica at the address the primary sees it from; say it plainly.
    `replica-announce-ip ${HOST}`,
    ...(replicaOf ? [`replicaof ${replicaOf.host} ${replicaOf.port}`] : []),
  ];
  const file = path.join(home, 'redis.conf');
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return new RedisProcess(name, port, file, false);
}

async function writeSentinel(
  dir: string,
  name: string,
  opts: { name: string; primary: RedisProcess; downAfterMs: number; failoverTimeoutMs: number },
): Promise<RedisProcess> {
  const port = await freePort();
  const home = path.join(dir, name);
  fs.mkdirSync(home, { recursive: true });
  const file = path.join(home, 'sentinel.conf');
  fs.writeFileSync(
    file,
    renderDeployFile('redis-sentinel.conf', {
      PORT: port,
      BIND: HOST,
      DIR: home,
      LOG_FILE: path.join(home, 'sentinel.log'),
      ANNOUNCE_IP: HOST,
      MASTER_NAME: opts.name,
      MASTER_HOST: opts.primary.host,
      MASTER_PORT: opts.primary.port,
      QUORUM: 2,
      DOWN_AFTER_MS: opts.downAfterMs,
      FAILOVER_TIMEOUT_MS: opts.failoverTimeoutMs,
    }),
  );
  return new RedisProcess(name, port, file, true);
}

/** One command on a short-lived connection that gives up at once when nobody answers. */
async function command<T>(port: number, run: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis({
    host: HOST,
    port,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 1_000,
    commandTimeout: 1_000,
  });
  redis.on('error', () => {}); // the caller hears the command's own failure
  try {
    await redis.connect();
    return await run(redis);
  } finally {
    redis.disconnect();
  }
}

async function askMaster(sentinel: RedisProcess, name: string): Promise<{ host: string; port: number }> {
  const answer = (await command(sentinel.port, (r) => r.call('SENTINEL', 'get-master-addr-by-name', name))) as
    [string, string] | null;
  if (!answer) throw new Error(`${sentinel.name} knows no master "${name}"`);
  return { host: answer[0], port: Number(answer[1]) };
}

/** `master` or `slave`, as the node itself says (undefined when it does not answer). */
async function roleOf(port: number): Promise<string | undefined> {
  try {
    const role = (await command(port, (r) => r.call('ROLE'))) as [string, ...unknown[]];
    return role[0];
  } catch {
    return undefined;
  }
}

async function replicaInSync(replica: RedisProcess): Promise<boolean> {
  try {
    const info = await command(replica.port, (r) => r.info('replication'));
    return /master_link_status:up/.test(info);
  } catch {
    return false;
  }
}

async function sentinelSeesAll(sentinel: RedisProcess, name: string): Promise<boolean> {
  try {
    const fields = (await command(sentinel.port, (r) => r.call('SENTINEL', 'master', name))) as string[];
    const get = (key: string) => fields[fields.indexOf(key) + 1];
    return Number(get('num-slaves')) >= 1 && Number(get('num-other-sentinels')) >= 2;
  } catch {
    return false;
  }
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(100);
  }
}
