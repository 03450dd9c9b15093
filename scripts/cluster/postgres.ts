import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '../../server/src/test/server-process';

/**
 * A PostgreSQL server of the project's own (the chaos run's, the cluster's): made with initdb in a temporary directory
 * on a free port, so stopping it never touches the machine's shared server.
 */

/** The newest PostgreSQL server binaries installed (Debian keeps them under /usr/lib/postgresql/<major>/bin). */
export function postgresBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const majors = fs.existsSync(root) ? fs.readdirSync(root).filter((d) => /^\d+$/.test(d)) : [];
  const newest = majors.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error(`No PostgreSQL server under ${root}: install postgresql, or set PG_BIN.`);
  return path.join(root, newest, 'bin');
}

/** initdb and the server refuse to run as root: as root, they run as the postgres user. */
export function asServerUser(cmd: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
}

export class PostgresCluster {
  readonly url: string;
  private readonly bin = postgresBin();

  private constructor(
    private readonly dir: string,
    readonly port: number,
  ) {
    this.url = `postgres://postgres@127.0.0.1:${port}/wall`;
  }

  /** initdb into `<workDir>/<name>` (trust auth), start it, and create the app's database. */
  static async create(workDir: string, name = 'pg'): Promise<PostgresCluster> {
    const dir = serverDir(path.join(workDir, name));
    const cluster = new PostgresCluster(dir, await freePort());
    await cluster.run('initdb', [
      '-D',
      path.join(dir, 'data'),
      '-U',
      'postgres',
      '-A',
      'trust',
      '--no-sync',
      '-E',
      'UTF8',
    ]);
    await cluster.start();
    const admin = new pg.Client({ connectionString: cluster.url.replace(/\/wall$/, '/postgres') });
    await admin.connect();
    await admin.query('CREATE DATABASE wall');
    await admin.end();
    return cluster;
  }

  /**
   * A streaming replica of `primary` (`pg_basebackup -R`: a copy of its data and the settings to follow it) in
   * `<workDir>/<name>`, started read-only (hot standby) on a port of its own.
   */
  static async replicaOf(primary: PostgresCluster, workDir: string, name: string): Promise<PostgresCluster> {
    const dir = serverDir(path.join(workDir, name));
    const replica = new PostgresCluster(dir, await freePort());
    await replica.run('pg_basebackup', [
      ...['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres'],
      ...['-D', path.join(dir, 'data'), '-R', '-X', 'stream', '--no-sync'],
    ]);
    await replica.start();
    return replica;
  }

  /** The data directory. */
  get dataDir(): string {
    return path.join(this.dir, 'data');
  }

  /** The postmaster's process id (the first line of postmaster.pid), while it runs. */
  get pid(): number | undefined {
    const file = path.join(this.dataDir, 'postmaster.pid');
    return fs.existsSync(file) ? Number(fs.readFileSync(file, 'utf8').split('\n')[0]) : undefined;
  }

  /** Runs a PostgreSQL tool without blocking the traffic that goes on meanwhile. */
  private async run(tool: string, args: string[]): Promise<void> {
    const [cmd, full] = asServerUser(path.join(this.bin, tool), args);
    await promisify(execFile)(cmd, full);
  }

  /**
   * Starts the server and waits until it accepts connections. fsync is off: the run kills PostgreSQL's clients
   * and restarts PostgreSQL, never the machine, and committed data survives a server crash without it.
   */
  async start(): Promise<void> {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
    await this.run('pg_ctl', [
      'start',
      '-w',
      '-D',
      path.join(this.dir, 'data'),
      '-l',
      path.join(this.dir, 'log'),
      '-o',
      options,
    ]);
    for (let i = 0; i < 100 && !(await this.accepting()); i++) await sleep(100);
  }

  /** `fast` disconnects every client and shuts down cleanly; `immediate` is a crash, recovered at the next start. */
  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    await this.run('pg_ctl', ['stop', '-w', '-D', path.join(this.dir, 'data'), '-m', mode]);
  }

  private async accepting(): Promise<boolean> {
    const c = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 1000 });
    c.on('error', () => {});
    try {
      await c.connect();
      await c.end();
      return true;
    } catch {
      return false;
    }
  }

  /** Stops the server whatever state it is in. */
  async destroy(): Promise<void> {
    await this.stop('immediate').catch(() => {
      /* already stopped */
    });
  }
}

/** A directory PostgreSQL's tools may own: as root, it is handed to the postgres user they run as. */
function serverDir(dir: string): string {
  fs.mkdirSync(dir, { mode: 0o700 });
  const ids = serverUserIds();
  if (ids) fs.chownSync(dir, ids.uid, ids.gid);
  return dir;
}

/** The postgres user's ids when this runs as root (PostgreSQL's tools and Patroni run as that user), else none. */
export function serverUserIds(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
  return { uid: id('-u'), gid: id('-g') };
}
