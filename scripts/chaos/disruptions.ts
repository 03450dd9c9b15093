import { setTimeout as sleep } from 'node:timers/promises';
import type { PostgresCluster } from '../cluster/postgres';
import type { RedisServer } from '../cluster/redis';
import type { Instance } from './instances';

/**
 * What the chaos run does to the system while the traffic goes on, each at a share of the traffic window: an
 * instance killed with SIGKILL and started again, PostgreSQL stopped and started (cleanly, and as a crash), Redis
 * stopped for a while. Each one waits until every instance answers /api/health 200 again, and says how long that took.
 */

export interface Done {
  at: number;
  what: string;
  /** From the start of the disruption until every instance was healthy again. */
  recoveredMs: number;
}

interface Step {
  at: number;
  what: string;
  act(): Promise<void>;
}

export function plan(pg: PostgresCluster, redis: RedisServer, instances: Instance[]): Step[] {
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

export async function disrupt(
  steps: Step[],
  instances: Instance[],
  windowMs: number,
  say: (line: string) => void,
): Promise<Done[]> {
  const started = Date.now();
  const done: Done[] = [];
  for (const step of steps) {
    const wait = started + step.at * windowMs - Date.now();
    if (wait > 0) await sleep(wait);
    const t0 = Date.now();
    say(`disruption: ${step.what}`);
    await step.act();
    await Promise.all(instances.map((i) => i.waitHealthy()));
    const recoveredMs = Date.now() - t0;
    say(`  every instance healthy again after ${(recoveredMs / 1000).toFixed(1)} s`);
    done.push({ at: (t0 - started) / 1000, what: step.what, recoveredMs });
  }
  return done;
}
