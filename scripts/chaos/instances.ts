import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A host no instance counts as a cash host: calls naming it reach the charity tenant. */
export const CHARITY_HOST = 'charity.chaos.test';

/** App instances as an operator runs them (`node --import tsx server/src/main.ts`), sharing one database and Redis. */

const root = path.resolve(import.meta.dirname, '../..');

/**
 * What every instance of a chaos run runs with, beside its database, Redis and addresses: the traffic is a few users
 * calling as fast as they can, and the market takes its fee, so the fee's postings are part of the books it checks.
 */
export const CHAOS_APP_ENV: Record<string, string> = {
  SEED_DEMO: '0',
  SERVE_WEB: '0',
  AUTH_RATE_LIMIT: '1000000',
  // The per-user upload limit would refuse most of the traffic.
  UPLOAD_RATE_LIMIT: '0',
  REPORT_RATE_LIMIT: '0',
  MARKET_FEE_BPS: '150',
  LOG_LEVEL: 'warn',
};

/** Something answering /api/health at `base`: an instance, or HAProxy in front of several. */
export class HttpTarget {
  constructor(
    readonly name: string,
    readonly base: string,
    /** Where to look when it does not come up. */
    private readonly logHint: string,
    /** False once its process has exited (nothing to wait for then). */
    private readonly isAlive: () => boolean = () => true,
  ) {}

  protected alive(): boolean {
    return this.isAlive();
  }

  async health(): Promise<number> {
    try {
      return (await fetch(`${this.base}/api/health`, { signal: AbortSignal.timeout(5_000) })).status;
    } catch {
      return 0;
    }
  }

  /** Waits until /api/health answers 200; answers how long that took. */
  async waitHealthy(ms = 120_000): Promise<number> {
    const started = Date.now();
    while (Date.now() - started < ms) {
      if (!this.alive()) throw new Error(`${this.name} exited; see ${this.logHint}`);
      if ((await this.health()) === 200) return Date.now() - started;
      await sleep(200);
    }
    throw new Error(`${this.name} not healthy after ${ms} ms; see ${this.logHint}`);
  }
}

export interface InstanceSettings {
  databaseUrl: string;
  redisUrl: string;
  dataDir: string;
  logDir: string;
}

export class Instance extends HttpTarget {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();

  constructor(
    name: string,
    readonly port: number,
    private readonly settings: InstanceSettings,
  ) {
    super(name, `http://127.0.0.1:${port}`, path.join(settings.logDir, `${name}.log`));
  }

  start(): void {
    const log = fs.openSync(path.join(this.settings.logDir, `${this.name}.log`), 'a');
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
      cwd: root,
      stdio: ['ignore', log, log],
      env: {
        ...process.env,
        ...CHAOS_APP_ENV,
        DATABASE_URL: this.settings.databaseUrl,
        REDIS_URL: this.settings.redisUrl,
        PORT: String(this.port),
        HOST: '127.0.0.1',
        DATA_DIR: this.settings.dataDir,
        // The tenants the run counts on, whatever the calling shell sets: the instance's own address is a cash host
        // (top-ups); any other Host, such as CHARITY_HOST, is a charity host (donation links, actors/charity.ts).
        CASH_HOSTS: `127.0.0.1:${this.port},localhost:${this.port}`,
        PUBLIC_URL: '',
      },
    });
    fs.closeSync(log);
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
  }

  /** `kill -9`: no shutdown, requests in flight are cut wherever they are. */
  async kill(): Promise<void> {
    this.child?.kill('SIGKILL');
    await this.exited;
  }

  async stop(): Promise<void> {
    if (this.child?.exitCode === null) this.child.kill('SIGTERM');
    await Promise.race([this.exited, sleep(15_000)]);
    await this.kill();
  }

  protected override alive(): boolean {
    return this.running;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }
}
