import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../server/src/test/server-process';
import { PostgresCluster } from '../cluster/postgres';
import { RedisServer } from '../cluster/redis';
import type { Step } from './disruptions';
import { Instance } from './instances';
import type { ChaosSetup } from './setup';

/**
 * The chaos run on one machine: a PostgreSQL server and a Redis of its own, two instances called directly, and
 * the disruptions below: an instance killed with SIGKILL and started again, PostgreSQL stopped and started (cleanly,
 * and as a crash), Redis stopped for a while.
 */
export async function startLocal(workDir: string, say: (line: string) => void): Promise<ChaosSetup> {
  const logDir = path.join(workDir, 'logs');
  fs.mkdirSync(logDir, { recursive: true });
  const cluster = await PostgresCluster.create(workDir);
  const instances: Instance[] = [];
  let redis: RedisServer | undefined;
  const stop = async () => {
    await Promise.all(instances.map((i) => i.stop()));
    await redis?.stop();
    await cluster.destroy();
  };
  try {
    redis = await RedisServer.create();
    say(`PostgreSQL on ${cluster.port}, Redis on ${redis.port}`);
    const settings = { databaseUrl: cluster.url, redisUrl: redis.url, dataDir: path.join(workDir, 'data'), logDir };
    for (const name of ['a', 'b']) instances.push(new Instance(name, await freePort(), settings));
    for (const i of instances) i.start();
    await Promise.all(instances.map((i) => i.waitHealthy()));
    say(`instances ${instances.map((i) => `${i.name} on ${i.port}`).join(', ')} healthy`);
    return {
      targets: instances,
      instances,
      databaseUrl: cluster.url,
      steps: plan(cluster, redis, instances),
      checks: () => Promise.resolve([]),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

function plan(pg: PostgresCluster, redis: RedisServer, instances: Instance[]): Step[] {
  const [a, b] = instances as [Instance, Instance];
  const restart = async (i: Instance) => {
    await i.kill();
    i.start();
  };
  return [
    { at: 0.12, what: `kill -9 instance ${b.name}, start it again`, act: () => restart(b) },
    {
      at: 0.3,
      what: 'stop PostgreSQL (pg_ctl stop -m fast) for 4 s, start it',
      act: async () => {
        await pg.stop('fast');
        await sleep(4_000);
        await pg.start();
      },
    },
    {
      at: 0.48,
      what: 'stop Redis (SIGKILL) for 8 s, start it',
      act: async () => {
        await redis.stop();
        await sleep(8_000);
        await redis.start();
      },
    },
    { at: 0.64, what: `kill -9 instance ${a.name}, start it again`, act: () => restart(a) },
    {
      at: 0.8,
      what: 'crash PostgreSQL (pg_ctl stop -m immediate) for 3 s, start it (crash recovery)',
      act: async () => {
        await pg.stop('immediate');
        await sleep(3_000);
        await pg.start();
      },
    },
  ];
}
