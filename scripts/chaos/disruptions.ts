import { setTimeout as sleep } from 'node:timers/promises';
import type { Target } from './traffic';

/**
 * What the chaos run does to the system while the traffic goes on, each step at a share of the traffic window (the
 * steps are the setup's: local.ts, cluster.ts). After each one, the run waits until every instance answers
 * /api/health 200 again, and says how long that took.
 */

export interface Done {
  at: number;
  what: string;
  /** What the step measured itself (a failover's time to writes working again). */
  detail?: string;
  /** From the start of the disruption until every instance was healthy again. */
  recoveredMs: number;
}

export interface Step {
  at: number;
  what: string;
  /** Does it; may answer a detail for the report. */
  act(): Promise<string | void>;
}

export async function disrupt(
  steps: Step[],
  instances: Target[],
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
    const detail = (await step.act()) ?? undefined;
    await Promise.all(instances.map((i) => i.waitHealthy()));
    const recoveredMs = Date.now() - t0;
    say(`  every instance healthy again after ${(recoveredMs / 1000).toFixed(1)} s${detail ? `; ${detail}` : ''}`);
    done.push({ at: (t0 - started) / 1000, what: step.what, recoveredMs, detail });
  }
  return done;
}
