import { sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import { sqlRows } from '../db/connection';
import type { Work } from '../db/unit-of-work';
import { isDatabaseUnavailable, isStorageUnavailable } from '../db/unavailable';

/** Periodic work. Each runs on every instance's timer, but one instance at a time does it (docs/product.md#operations). */
export interface Job {
  name: string;
  /** The PostgreSQL advisory lock the job runs under; unique among jobs. */
  lock: number;
  everyMs: number;
  /** Run once right after start too (work left by a previous run may be waiting). */
  atStart?: boolean;
  /**
   * The work, inside the unit of work that holds the lock: use `work.tx` for every query (on the embedded database
   * the outer connection is the one this transaction holds), `work.emit` for live events (handed over at the commit).
   * Nothing in it may wait on Redis, the network or anything slow but the database: a transaction waiting holds its
   * locks and its connection (docs/decisions.md, issue 22 item 27). Such work is the step it answers, run once the
   * transaction has committed.
   */
  run(ctx: AppContext, work: Work): Promise<void | AfterCommit>;
  /** Waits for work the job left running past its runs (the pushes under way), when the jobs stop. */
  stop?(ctx: AppContext): Promise<void>;
}

/** A job's work that waits on something outside the database, run after its transaction (and lock) are released. */
export type AfterCommit = () => Promise<void>;

/**
 * Runs a job once if no other instance is running it: the advisory lock is held by a transaction for as long as
 * the job's database work takes, and released by its end even if the process dies; then its after-commit step, if
 * it has one. Answers whether this call ran it.
 */
export async function runJob(ctx: AppContext, job: Job): Promise<boolean> {
  const ran = await ctx.transact(async (work) => {
    const [lock] = await sqlRows(work.tx, sql<{ ok: boolean }>`SELECT pg_try_advisory_xact_lock(${job.lock}) AS ok`);
    if (!lock?.ok) return false;
    return { after: await job.run(ctx, work) };
  });
  if (!ran) return false;
  if (ran.after) await ran.after();
  return true;
}

/**
 * Starts every job's timer; the answer stops them all and waits for runs in flight, so the database is never
 * closed under a job.
 */
export function startJobs(ctx: AppContext, jobs: readonly Job[]): () => Promise<void> {
  const running = new Map<string, Promise<void>>();
  const timers: NodeJS.Timeout[] = [];
  const tick = (job: Job) => {
    if (running.has(job.name)) return; // the previous run is still going
    const run = runJob(ctx, job)
      .then(
        () => undefined,
        (err) =>
          // The database being away is said once per try, without a stack; the next tick tries again.
          isDatabaseUnavailable(err)
            ? ctx.log.warn({ job: job.name, reason: (err as Error).message }, 'job skipped: database unavailable')
            : isStorageUnavailable(err)
              ? ctx.log.warn(
                  { job: job.name, reason: (err as Error).message },
                  'job skipped: image storage unavailable',
                )
              : ctx.log.error({ err, job: job.name }, 'job failed'),
      )
      .finally(() => running.delete(job.name));
    running.set(job.name, run);
  };
  for (const job of jobs) {
    if (job.atStart) timers.push(setTimeout(() => tick(job), 0));
    timers.push(setInterval(() => tick(job), job.everyMs));
  }
  for (const timer of timers) timer.unref();
  return async () => {
    for (const timer of timers) clearTimeout(timer);
    await Promise.all(running.values());
    await Promise.all(jobs.map((job) => job.stop?.(ctx)));
  };
}
