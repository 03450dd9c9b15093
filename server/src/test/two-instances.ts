import { randomBytes } from 'node:crypto';
import { loadConfig, type Config } from '../config';
import type { Job } from '../jobs/runner';
import { MemoryMailer } from '../mail/mailer';
import { createServer, type RunningServer } from '../server';
import { freshPostgresDatabase, realPostgresUrl, realRedisUrl } from './databases';

export interface TwoInstances {
  a: RunningServer;
  b: RunningServer;
  urlA: string;
  urlB: string;
  close(): Promise<void>;
}

/**
 * Two app instances on one fresh PostgreSQL database, talking through the real Redis on a channel of this run's own
 * (so parallel runs sharing one Redis never hear each other), each listening on a port of its own. Callers check
 * `missingRealServices({ postgres: true, redis: true })` first. `config` changes the settings of both (another
 * Redis, through Sentinel, and lower limits).
 */
export async function startTwoInstances(
  name: string,
  opts: { jobs?: readonly Job[]; config?: Partial<Config> } = {},
): Promise<TwoInstances> {
  const pgdb = await freshPostgresDatabase(realPostgresUrl!);
  const channel = `wall:live:test:${name}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const config = loadConfig(
    { PORT: '3000' },
    {
      databaseUrl: pgdb.url,
      databaseDirectUrl: pgdb.directUrl,
      redisUrl: realRedisUrl,
      redisChannel: channel,
      serveWeb: false,
      ...opts.config,
    },
  );
  const start = () => createServer(config, { mailer: new MemoryMailer(), logger: false, jobs: opts.jobs });
  // One after the other: both would migrate the same fresh database.
  const a = await start();
  const b = await start();
  return {
    a,
    b,
    urlA: await a.app.listen({ port: 0, host: '127.0.0.1' }),
    urlB: await b.app.listen({ port: 0, host: '127.0.0.1' }),
    async close() {
      await a.close();
      await b.close();
      await pgdb.drop();
    },
  };
}
