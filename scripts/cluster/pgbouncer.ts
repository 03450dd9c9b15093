import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../server/src/test/server-process';
import { ensurePrograms } from './packages';
import { accepts, stopChild } from './ports';
import { asServerUser } from './postgres';
import { renderDeployFile } from './render';

const PGBOUNCER = '/usr/sbin/pgbouncer';

/**
 * Debian's PgBouncer in transaction pooling (deploy/pgbouncer.ini) in front of a PostgreSQL server, on a free port,
 * its files under `dir`. It passes every database name through, so `url(name)` reaches any database of the server.
 */
export class PgBouncer {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    readonly dir: string,
  ) {}

  /** PgBouncer's own process id (from its pid file: as root, the child is `runuser`). */
  get pid(): number | undefined {
    const file = path.join(this.dir, 'pgbouncer.pid');
    return fs.existsSync(file) ? Number(fs.readFileSync(file, 'utf8').trim()) : this.child.pid;
  }

  /** The pooled URL of a database (the user is PostgreSQL's `postgres`, trusted as the server trusts it). */
  url(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  static async start(dir: string, server: { host: string; port: number }, port?: number): Promise<PgBouncer> {
    ensurePrograms({ [PGBOUNCER]: 'pgbouncer' });
    fs.mkdirSync(dir, { recursive: true });
    const listenPort = port ?? (await freePort());
    const authFile = path.join(dir, 'userlist.txt');
    fs.writeFileSync(authFile, '"postgres" ""\n');
    const ini = path.join(dir, 'pgbouncer.ini');
    fs.writeFileSync(
      ini,
      renderDeployFile('pgbouncer.ini', {
        PG_HOST: server.host,
        PG_PORT: server.port,
        LISTEN_HOST: '127.0.0.1',
        LISTEN_PORT: listenPort,
        AUTH_TYPE: 'trust',
        AUTH_FILE: authFile,
        LOG_FILE: path.join(dir, 'pgbouncer.log'),
        PID_FILE: path.join(dir, 'pgbouncer.pid'),
      }),
    );
    // PgBouncer refuses to run as root: as root, it runs as the postgres user, which must read and write its files.
    if (process.getuid?.() === 0) fs.chmodSync(dir, 0o777);
    const [cmd, args] = asServerUser(PGBOUNCER, ['-q', ini]);
    const child = spawn(cmd, args, { stdio: 'ignore' });
    const bouncer = new PgBouncer(child, listenPort, dir);
    for (let i = 0; i < 100 && !(await accepts(listenPort)); i++) {
      if (child.exitCode !== null) break;
      await sleep(50);
    }
    if (!(await accepts(listenPort))) {
      const log = fs.existsSync(path.join(dir, 'pgbouncer.log'))
        ? fs.readFileSync(path.join(dir, 'pgbouncer.log'))
        : '';
      throw new Error(`PgBouncer did not start on port ${listenPort}:\n${log}`);
    }
    return bouncer;
  }

  stop(): Promise<void> {
    // runuser passes SIGTERM on to PgBouncer, which then stops at once (SIGINT would wait for clients).
    return stopChild(this.child, 'SIGTERM');
  }
}
