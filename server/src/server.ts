import path from 'node:path';
import { buildApp, type BuiltApp } from './app';
import type { Config } from './config';
import { openDatabase } from './db/connection';
import { registerCloseOnShutdown } from './http/hooks';
import { createBus } from './live/create-bus';
import { JOBS } from './jobs/jobs';
import { startJobs, type Job } from './jobs/runner';
import { createMailer, type Mailer } from './mail/mailer';

export interface RunningServer extends BuiltApp {
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
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    memory: opts.memory ?? false,
  });
  const bus = await createBus(config.redisUrl, config.redisChannel);
  const mailer =
    opts.mailer ??
    createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: path.join(config.dataDir, 'mail') });
  const built = await buildApp({ config, database, bus, mailer, logger: opts.logger, now: opts.now });
  registerCloseOnShutdown(built.app);
  const stopJobs = startJobs(built.ctx, opts.jobs ?? JOBS);
  let closing: Promise<void> | undefined;
  return {
    ...built,
    close() {
      closing ??= (async () => {
        await stopJobs();
        await built.app.close();
        await bus.close();
        await database.close();
      })();
      return closing;
    },
  };
}
