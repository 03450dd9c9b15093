import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../server/src/test/server-process';
import { ensurePrograms } from './packages';
import { processAlive } from './ports';
import { postgresBin, serverUserIds } from './postgres';
import { renderDeployFile } from './render';

const PATRONI = '/usr/bin/patroni';

export type Role = 'primary' | 'replica' | '';

/** How fast a dead primary is replaced (deploy/patroni.yml): about ttl + loop_wait seconds. */
export interface FailoverTiming {
  ttl: number;
  loopWait: number;
  retryTimeout: number;
}

/** Short enough for a failover in about 12 s on one machine; Patroni's defaults (30, 10, 10) suit real networks. */
export const FAST_FAILOVER: FailoverTiming = { ttl: 10, loopWait: 2, retryTimeout: 3 };

/**
 * One PostgreSQL node of the highly available pair: Patroni (Debian's package) with the PostgreSQL it starts,
 * promotes and re-points (docs/operations.md, "Failover"). The node is its two processes: losing the node is both
 * dying at once (`kill`), and `start` brings it back, as a standby of whichever node is primary by then.
 */
export class PatroniNode {
  private child: ChildProcess | undefined;
  private output = '';

  private constructor(
    readonly name: string,
    private readonly dir: string,
    readonly port: number,
    readonly restPort: number,
  ) {}

  static async create(workDir: string, name: string, etcdHosts: string[], timing = FAST_FAILOVER) {
    ensurePrograms({ [PATRONI]: 'patroni' });
    const dir = path.join(workDir, name);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const node = new PatroniNode(name, dir, await freePort(), await freePort());
    fs.writeFileSync(
      node.configFile,
      renderDeployFile('patroni.yml', {
        NAME: name,
        REST_PORT: node.restPort,
        ETCD_HOSTS: etcdHosts.join(','),
        TTL: timing.ttl,
        LOOP_WAIT: timing.loopWait,
        RETRY_TIMEOUT: timing.retryTimeout,
        PG_PORT: node.port,
        DATA_DIR: node.dataDir,
        BIN_DIR: postgresBin(),
        PGPASS: path.join(dir, 'pgpass'),
        SOCKET_DIR: dir,
        // The cluster on one machine kills processes, never the machine: committed data survives without fsync.
        FSYNC: 'off',
      }),
    );
    ownedByServerUser(dir);
    return node;
  }

  get dataDir(): string {
    return path.join(this.dir, 'data');
  }

  private get configFile(): string {
    return path.join(this.dir, 'patroni.yml');
  }

  /** `postgres://…/wall` on this node itself (the app goes through HAProxy instead). */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/wall`;
  }

  /** Patroni's process, then its PostgreSQL's postmaster while it runs. */
  get pids(): number[] {
    const file = path.join(this.dataDir, 'postmaster.pid');
    const postmaster = fs.existsSync(file) ? Number(fs.readFileSync(file, 'utf8').split('\n')[0]) : undefined;
    return [this.child?.pid, postmaster].filter((p): p is number => p !== undefined && processAlive(p));
  }

  /** What Patroni logged last. */
  log(): string {
    return this.output;
  }

  /** Starts Patroni, as the postgres user when run as root (PostgreSQL refuses root). */
  start(): void {
    const ids = serverUserIds();
    this.child = spawn(PATRONI, [this.configFile], {
      cwd: this.dir,
      env: { ...process.env, HOME: this.dir, PATRONI_LOG_LEVEL: 'WARNING' },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(ids ? { uid: ids.uid, gid: ids.gid } : {}),
    });
    const keep = (d: Buffer) => (this.output = (this.output + d.toString()).slice(-20_000));
    this.child.stdout!.on('data', keep);
    this.child.stderr!.on('data', keep);
  }

  /** The role Patroni reports, '' while it starts, stops or cannot say. */
  async role(): Promise<Role> {
    const res = await fetch(`http://127.0.0.1:${this.restPort}/patroni`, { signal: AbortSignal.timeout(1_000) }).catch(
      () => undefined,
    );
    if (!res?.ok) return '';
    const body = (await res.json()) as { role?: string; state?: string };
    if (body.state !== 'running') return '';
    if (body.role === 'master' || body.role === 'primary') return 'primary';
    return body.role === 'replica' ? 'replica' : '';
  }

  /** Waits until Patroni reports `role` (a replica that streams from the primary, for 'replica'). */
  async waitFor(role: Exclude<Role, ''>, ms = 120_000): Promise<void> {
    for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(250)) {
      if ((await this.role()) === role) return;
    }
    throw new Error(`${this.name} did not become ${role} within ${ms} ms:\n${this.output}`);
  }

  /** Waits until this replica is the primary's synchronous standby (Patroni's GET /sync answers 200). */
  async waitForSync(ms = 60_000): Promise<void> {
    for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(250)) {
      const res = await fetch(`http://127.0.0.1:${this.restPort}/sync`, { signal: AbortSignal.timeout(1_000) }).catch(
        () => undefined,
      );
      if (res?.ok) return;
    }
    throw new Error(`${this.name} did not become the synchronous standby within ${ms} ms:\n${this.output}`);
  }

  /** The node dies: Patroni and its PostgreSQL at once (SIGKILL), as when the machine under them is lost. */
  kill(): void {
    for (const pid of this.pids) process.kill(pid, 'SIGKILL');
  }

  /** Patroni stops its PostgreSQL (fast) and exits; whatever outlives that is killed. */
  async stop(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      // Unreferenced: a stop that did not need it keeps no process waiting for the timer.
      await Promise.race([exited, sleep(20_000, undefined, { ref: false })]);
    }
    this.kill();
  }
}

/** As root, the node's folder and files are handed to the postgres user Patroni runs as. */
function ownedByServerUser(dir: string): void {
  const ids = serverUserIds();
  if (!ids) return;
  for (const entry of [dir, ...fs.readdirSync(dir).map((f) => path.join(dir, f))])
    fs.chownSync(entry, ids.uid, ids.gid);
}
