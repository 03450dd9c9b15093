import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { loadConfig, type Config } from '../config';
import { MemoryMailer } from '../mail/mailer';
import type { Job } from '../jobs/runner';
import { createServer, type RunningServer } from '../server';
import { freshPostgresDatabase } from './databases';

export interface TestApp extends RunningServer {
  mailer: MemoryMailer;
  config: Config;
  /** A client with its own cookie jar, like one browser. */
  client(): TestClient;
}

export interface TestAppOptions {
  config?: Partial<Config>;
  env?: Record<string, string>;
  /** Run on this PostgreSQL server (a fresh database is made) instead of the suite's default. */
  postgresUrl?: string;
  now?: () => Date;
  /** The periodic jobs to run (server/src/jobs/jobs.ts), all of them by default. */
  jobs?: readonly Job[];
}

/** CI runs three jobs on two cores (.ci/run): two hundred chat sends through PgBouncer, one at a time in the room, passed 30 s there. */
const CI_PATIENCE = process.env.CI ? 4 : 1;

/**
 * Database waits for the tests that send a hundred calls or more at once to test exactly-once, not speed: with the
 * defaults (a pool connection within 3 s, a statement within 5 s) such a burst answers 503s when CI runs other jobs
 * beside it on two cores, which is right for users and beside the point of those tests.
 */
export const PATIENT_DATABASE: Partial<Config> = {
  dbConnectTimeoutMs: 30_000 * CI_PATIENCE,
  dbStatementTimeoutMs: 30_000 * CI_PATIENCE,
  dbTransactionTimeoutMs: 40_000 * CI_PATIENCE,
};

/**
 * The real app on a database of its own: embedded in memory by default, a fresh PostgreSQL database when
 * DATABASE_URL (or `postgresUrl`) is set. No port is opened; calls go through `inject`.
 */
export async function startTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const baseUrl = opts.postgresUrl ?? process.env.DATABASE_URL;
  const pgdb = baseUrl ? await freshPostgresDatabase(baseUrl) : undefined;
  const config = loadConfig(
    { PORT: '3000', ...opts.env },
    {
      serveWeb: false,
      authRateLimit: 10_000,
      accountLoginLimit: 10_000,
      uploadRateLimit: 10_000,
      reportRateLimit: 10_000,
      databaseUrl: pgdb?.url,
      databaseDirectUrl: pgdb?.directUrl,
      redisUrl: undefined,
      ...opts.config,
    },
  );
  const mailer = new MemoryMailer();
  const server = await createServer(config, { mailer, logger: false, memory: !pgdb, now: opts.now, jobs: opts.jobs });
  return {
    ...server,
    mailer,
    config,
    client: () => new TestClient(server),
    async close() {
      await server.close();
      await pgdb?.drop();
    },
  };
}

type Body = Record<string, unknown> | unknown[] | string | Buffer | undefined;

/** Calls the app like a browser on localhost:3000: keeps its cookies and sends a same-site Origin. */
export class TestClient {
  readonly cookies = new Map<string, string>();
  constructor(private readonly server: Pick<RunningServer, 'app'>) {}

  async request(opts: InjectOptions): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = {
      host: 'localhost:3000',
      origin: 'http://localhost:3000',
      ...(opts.headers as Record<string, string> | undefined),
    };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await this.server.app.inject({ ...opts, headers });
    for (const c of res.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      const expired = c.value === '' || (c.expires !== undefined && c.expires.getTime() < Date.now());
      if (expired) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return res;
  }

  get(url: string, headers?: Record<string, string>) {
    return this.request({ method: 'GET', url, headers });
  }

  post(url: string, body?: Body, headers?: Record<string, string>) {
    return this.request({ method: 'POST', url, payload: body ?? {}, headers });
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}
