import path from 'node:path';
import { buildApp, type BuiltApp } from './app';
import type { Config } from './config';
import { openDatabase } from './db/connection';
import { redisTarget } from './db/redis-connection';
import { isDatabaseUnavailable } from './db/unavailable';
import { registerCloseOnShutdown } from './http/hooks';
import { createBus } from './live/create-bus';
import { JOBS } from './jobs/jobs';
import { startJobs, type Job } from './jobs/runner';
import { createMailer, type Mailer } from './mail/mailer';
import { openStorage } from './storage/open-storage';
import { ServiceUnreachableError } from './start-up';

export interface RunningServer extends BuiltApp {
  /**
   * Drains: `/api/health` answers 503 at once, so a load balancer stops sending, while everything in flight and
   * anything still arriving is served for `ms`; `close` follows (docs/scaling.md, "Load balancer").
   */
  drain(ms: number): Promise<void>;
  /** Stops taking requests, lets in-flight ones finish, closes sockets, the bus and the database. */
  close(): Promise<void>;
}

export interface ServerOptions {
  mailer?: Mailer;
  logger?: boolean | object;
  now?: () => Date;
  /** Embedded database in memory instead of DATA_DIR (tests). */
  memory?: boolean;
  /** Periodic jobs to run (server/src/jobs/jobs.ts by default). */
  jobs?: readonly Job[];
}

/** Opens everything the app needs from its config and builds it; `listen` is left to the caller. */
export async function createServer(config: Config, opts: ServerOptions = {}): Promise<RunningServer> {
  // Connection troubles are logged through the app's logger once it exists; before that, a failure to connect
  // is reported whole by the error it throws.
  const connectionLost = { log: (_err: Error): void => {} };
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    directUrl: config.databaseDirectUrl,
    readUrl: config.databaseReadUrl,
    dataDir: config.dataDir,
    memory: opts.memory ?? false,
    connectTimeoutMs: config.dbConnectTimeoutMs,
    statementTimeoutMs: config.dbStatementTimeoutMs,
    transactionTimeoutMs: config.dbTransactionTimeoutMs,
    onConnectionError: (err) => connectionLost.log(err),
  }).catch((err: unknown) => {
    if (config.databaseUrl && isDatabaseUnavailable(err))
      throw ServiceUnreachableError.of('PostgreSQL', config.databaseUrl, err);
    throw err;
  });
  const redisTrouble = { last: undefined as Error | undefined, log: (_err: Error): void => {} };
  const redis = redisTarget(config);
  let bus;
  try {
    bus = await createBus(redis, config.redisChannel, (err) => {
      redisTrouble.last = err;
      redisTrouble.log(err);
    });
  } catch (err) {
    await database.close(); // frees the data directory's lock for the next try
    // ioredis says only "Connection is closed"; the error event before it says why.
    // Through Sentinel, the error events are each Sentinel's; the bus's error says what they add up to.
    const reason = typeof redis === 'string' ? (redisTrouble.last ?? err) : ((err as Error).cause ?? err);
    throw redis ? ServiceUnreachableError.ofRedis(redis, reason) : err;
  }
  const mailer =
    opts.mailer ??
    createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: path.join(config.dataDir, 'mail') });
  const storage = await openStorage(config);
  let built: BuiltApp;
  try {
    built = await buildApp({ config, database, bus, mailer, storage, logger: opts.logger, now: opts.now });
  } catch (err) {
    storage.close?.();
    await bus.close();
    await database.close();
    throw err;
  }
  const { app } = built;
  connectionLost.log = (err) => app.log.warn({ reason: err.message }, 'database connection lost');
  redisTrouble.log = (err) => app.log.warn({ reason: err.message }, 'redis connection trouble');
  registerCloseOnShutdown(built.app);
  const stopJobs = startJobs(built.ctx, opts.jobs ?? JOBS);
  let closing: Promise<void> | undefined;
  return {
    ...built,
    async drain(ms) {
      built.ctx.lifecycle.draining = true;
      if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
    },
    close() {
      closing ??= (async () => {
        await stopJobs();
        await built.app.close();
        storage.close?.();
        await bus.close();
        await database.close();
      })();
      return closing;
    },
  };
}
