import fs from 'node:fs';
import path from 'node:path';
import { freePort, startServer, waitForHealth, type ServerProcess } from '../../server/src/test/server-process';
import { HaProxy } from './haproxy';
import { PgBouncer } from './pgbouncer';
import { PatroniPair } from './patroni-pair';
import { PostgresCluster } from './postgres';
import { processAlive } from './ports';
import { RedisServer } from './redis';
import { startSentinelCluster, type SentinelCluster } from './sentinel';
import { startTestS3, type TestS3 } from '../../server/src/test/s3-server';

/** One running part of the cluster, as `cluster.json` lists it (docs/scaling.md, "npm run cluster"). */
export interface Component {
  name: string;
  role: 'primary' | 'replica' | '';
  host: string;
  port: number;
  pid: number | undefined;
  /** Every process of a node that runs several (Patroni and its PostgreSQL): losing the node is all of them dying. */
  pids?: number[];
  dataDir?: string;
}

export interface ClusterDescription {
  url: string;
  components: Component[];
  /** The variables the instances run with, so `npm run admin` can be pointed at the cluster. */
  env: Record<string, string>;
}

export interface TopologyOptions {
  /** Where everything lives: data, configuration and logs. */
  dir: string;
  /** HAProxy's port. */
  port: number;
  instances: number;
  /** Instances serve the built web client and seed the demo (an operator's cluster); tests leave both off. */
  web: boolean;
  /** More variables for the instances (a benchmark lifts the sign-up limit). */
  env?: Record<string, string>;
  /** `--ha`: PostgreSQL as a Patroni pair with a synchronous standby behind HAProxy (docs/operations.md). */
  ha?: boolean;
}

export interface AppInstance {
  name: string;
  port: number;
  dataDir: string;
  /** The variables it runs with, kept for a restart. */
  env: Record<string, string>;
  process: ServerProcess;
}

/**
 * The whole topology on this machine, from Debian's packages: HAProxy → N instances → PgBouncer → a PostgreSQL
 * primary with a streaming replica, Redis, and a local S3-compatible server for the images. With `ha`, PostgreSQL is
 * a Patroni pair with a synchronous standby behind an HAProxy of its own, and Redis a primary and replica under three
 * Sentinels (docs/operations.md, "Failover"). Started in dependency order; `stop` stops what was started, in reverse.
 */
export class Topology {
  readonly instances: AppInstance[] = [];
  /** The primary and its streaming replica, without `ha`. */
  primary!: PostgresCluster;
  replica!: PostgresCluster;
  /** With `ha`: the Patroni pair in their place. */
  pair: PatroniPair | undefined;
  bouncer!: PgBouncer;
  /** Without `ha`: one Redis. */
  redis: RedisServer | undefined;
  /** With `ha`: a Redis primary and replica under three Sentinels. */
  sentinels: SentinelCluster | undefined;
  /** Which of the Sentinels' nodes is the master now (refreshRoles). */
  private redisMasterPort: number | undefined;
  /** The local S3-compatible server (s3rver, from npm) holding the images of every instance. */
  s3!: TestS3;
  proxy!: HaProxy;
  env: Record<string, string> = {};

  private constructor(readonly opts: TopologyOptions) {}

  get url(): string {
    return `http://127.0.0.1:${this.opts.port}`;
  }

  static async start(opts: TopologyOptions, say: (line: string) => void = () => {}): Promise<Topology> {
    const t = new Topology(opts);
    try {
      await t.startAll(say);
    } catch (err) {
      await t.stop();
      throw err;
    }
    return t;
  }

  private async startAll(say: (line: string) => void): Promise<void> {
    const { dir } = this.opts;
    const database = this.opts.ha ? await this.startPatroniPair(say) : await this.startStreamingPair(say);
    say('PgBouncer...');
    this.bouncer = await PgBouncer.start(path.join(dir, 'pgbouncer'), { host: '127.0.0.1', port: database.port });
    say(this.opts.ha ? 'Redis, a replica and three Sentinels...' : 'Redis...');
    const redisEnv = this.opts.ha ? await this.startSentinels() : await this.startRedis();
    say('the S3 server (s3rver)...');
    this.s3 = await startTestS3();
    this.env = {
      ...this.s3.env,
      DATABASE_URL: this.bouncer.url('wall'),
      DATABASE_DIRECT_URL: database.url,
      DATABASE_READ_URL: database.readUrl,
      ...redisEnv,
      TRUST_PROXY: '1',
      // The address people use is HAProxy's: links in mail, and the tenant that takes card payments.
      PUBLIC_URL: this.url,
    };
    for (let i = 1; i <= this.opts.instances; i++) {
      const name = `app-${i}`;
      say(`${name}...`);
      const port = await freePort();
      const dataDir = path.join(dir, name);
      fs.mkdirSync(dataDir);
      const env = {
        ...this.env,
        ...this.opts.env,
        SERVE_WEB: this.opts.web ? '1' : '0',
        SEED_DEMO: this.opts.web ? '1' : '0',
      };
      const process = startServer(dataDir, port, env);
      this.instances.push({ name, port, dataDir, env, process });
      // One after the other: the first migrates (and seeds), the others find it done.
      await waitForHealth(`http://127.0.0.1:${port}`, process);
    }
    say('HAProxy...');
    this.proxy = await HaProxy.start(
      path.join(dir, 'haproxy'),
      this.opts.port,
      this.instances.map((i) => ({ name: i.name, host: '127.0.0.1', port: i.port })),
    );
    await this.healthyThroughProxy();
  }

  private async startStreamingPair(say: (line: string) => void) {
    say('PostgreSQL primary (initdb)...');
    this.primary = await PostgresCluster.create(this.opts.dir, 'postgres-1');
    say('PostgreSQL replica (pg_basebackup)...');
    this.replica = await PostgresCluster.replicaOf(this.primary, this.opts.dir, 'postgres-2');
    return { port: this.primary.port, url: this.primary.url, readUrl: this.replica.url };
  }

  private async startPatroniPair(say: (line: string) => void) {
    this.pair = await PatroniPair.start(this.opts.dir, say);
    return { port: this.pair.primaryPort, url: this.pair.url, readUrl: this.pair.readUrl };
  }

  private async startRedis(): Promise<Record<string, string>> {
    this.redis = await RedisServer.create();
    return { REDIS_URL: this.redis.url };
  }

  private async startSentinels(): Promise<Record<string, string>> {
    this.sentinels = await startSentinelCluster({ dir: path.join(this.opts.dir, 'redis') });
    this.redisMasterPort = this.sentinels.primary.port;
    return { ...this.sentinels.env };
  }

  /** Waits until HAProxy's checks have found the instances up (two good checks each). */
  private async healthyThroughProxy(ms = 30_000): Promise<void> {
    for (const deadline = Date.now() + ms; Date.now() < deadline;) {
      const res = await fetch(`${this.url}/api/health`).catch(() => undefined);
      if (res?.ok) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`HAProxy did not answer /api/health 200 within ${ms} ms:\n${this.proxy.log()}`);
  }

  describe(): ClusterDescription {
    const local = (name: string, role: Component['role'], port: number, pid: number | undefined, dataDir?: string) =>
      ({ name, role, host: '127.0.0.1', port, pid, ...(dataDir ? { dataDir } : {}) }) satisfies Component;
    return {
      url: this.url,
      components: [
        local('haproxy', '', this.proxy.port, this.proxy.pid),
        ...this.instances.map((i) => local(i.name, '', i.port, i.process.child.pid, i.dataDir)),
        local('pgbouncer', '', this.bouncer.port, this.bouncer.pid),
        ...(this.pair
          ? this.pair.components()
          : [
              local('postgres-1', 'primary', this.primary.port, this.primary.pid, this.primary.dataDir),
              local('postgres-2', 'replica', this.replica.port, this.replica.pid, this.replica.dataDir),
            ]),
        ...(this.sentinels
          ? [this.sentinels.primary, this.sentinels.replica, ...this.sentinels.sentinels].map((p) =>
              local(p.name, p.name.startsWith('redis') ? this.redisRole(p.port) : '', p.port, p.pid),
            )
          : [local('redis-1', 'primary', this.redis!.port, this.redis!.pid)]),
        local('s3', '', this.s3.port, this.s3.pid()),
      ],
      env: this.env,
    };
  }

  /** Stops an instance with `signal` (SIGKILL: it dies; SIGTERM: it drains) and starts it again on its port. */
  async restartInstance(instance: AppInstance, signal: NodeJS.Signals): Promise<void> {
    instance.process.child.kill(signal);
    await instance.process.exited;
    instance.process = startServer(instance.dataDir, instance.port, instance.env);
    await waitForHealth(`http://127.0.0.1:${instance.port}`, instance.process);
  }

  /** Asks the failover managers who is primary now (nothing to ask without `ha`). */
  async refreshRoles(): Promise<void> {
    await this.pair?.refreshRoles();
    if (this.sentinels) this.redisMasterPort = (await this.sentinels.currentMaster().catch(() => undefined))?.port;
  }

  private redisRole(port: number): Component['role'] {
    if (this.redisMasterPort === undefined) return '';
    return port === this.redisMasterPort ? 'primary' : 'replica';
  }

  /** `postgres-1 primary, postgres-2 replica, …`, for the log. */
  roleSummary(): string {
    return this.describe()
      .components.filter((c) => c.role)
      .map((c) => `${c.name} ${c.role}`)
      .join(', ');
  }

  /** Stops everything that was started, the instances first (each drains), PostgreSQL last. */
  async stop(): Promise<void> {
    await this.proxy?.stop();
    await Promise.all(
      this.instances.map(async (i) => {
        if (i.process.child.exitCode !== null || i.process.child.signalCode !== null) return;
        i.process.child.kill('SIGTERM');
        await i.process.exited;
      }),
    );
    await this.bouncer?.stop();
    await this.redis?.stop();
    await this.sentinels?.stop();
    await this.s3?.close();
    await this.pair?.stop();
    for (const server of [this.replica, this.primary]) {
      if (!server) continue;
      const pid = server.pid;
      await server.stop('fast').catch(() => server.destroy());
      // A server that did not stop in pg_ctl's time (a loaded machine) must not outlive the cluster.
      if (pid !== undefined && processAlive(pid)) process.kill(pid, 'SIGKILL');
    }
  }
}
