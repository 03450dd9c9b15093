import { sql } from 'drizzle-orm';
import { openDatabase, sqlRows, type Database } from '../../server/src/db/connection';
import { oneCaller } from '../../server/src/db/one-call';
import { transact, type Work, type WorkDeps } from '../../server/src/db/unit-of-work';
import {
  creditTopUp,
  ensureSystemAccounts,
  openUserAccounts,
  spend,
  spendAlone,
} from '../../server/src/ledger/commands';
import { checkConservation } from '../../server/src/ledger/conservation';
import type { PostResult } from '../../server/src/ledger/ledger';
import { MemoryBus } from '../../server/src/live/bus';
import { inParallel, timedRun } from '../pgbench';
import { quantile } from './stats';

/**
 * The ledger benchmark's spend workload (docs/performance.md, "Ledger"), shared by `npm run bench:ledger` and
 * `npm run bench:failover`: users with money enough for the whole run, and loops of spend transactions.
 */

export const START_BALANCE = 10_000_000; // cents: enough that no spend of the run is ever refused
export const SPEND = 7;

export interface Figures {
  rate: number;
  p50: number;
  p99: number;
  count: number;
  failures: number;
}

/** `count` users (bench_1…), each with their accounts opened and START_BALANCE topped up. */
export async function createUsers(
  database: Database,
  deps: WorkDeps,
  count: number,
  workers: number,
): Promise<number[]> {
  const created = await sqlRows<{ id: number }>(
    database.db,
    sql`INSERT INTO users (username, email, badge)
        SELECT 'bench_' || i, 'bench_' || i || '@example.test', 'BENCH' || i FROM generate_series(1, ${count}) i
        RETURNING id`,
  );
  const ids = created.map((r) => r.id);
  await inParallel(ids, workers, async (id) => {
    await openUserAccounts(database.db, id);
    await transact(deps, (w) => creditTopUp(w, id, START_BALANCE, `bench-${id}`));
  });
  return ids;
}

/** One spend of SPEND cents by `userId` inside `work`. */
export function spendIn(work: Work, userId: number): Promise<PostResult> {
  return spend(work, { userId, amount: SPEND, kind: 'TEST' });
}

/**
 * One spend in a transaction of its own, the unit every figure counts: one round trip (`spendAlone`, its BEGIN, the
 * call of `ledger_spend` and its COMMIT as one query).
 */
export function spendOnce(deps: WorkDeps, userId: number): Promise<PostResult> {
  return spendAlone(oneCaller(deps), { userId, amount: SPEND, kind: 'TEST' });
}

/** `workers` loops, each running one spend transaction after another for `seconds`. */
export async function spends(
  deps: WorkDeps,
  workers: number,
  seconds: number,
  pick: () => number,
): Promise<Figures & { latencies: number[] }> {
  const run = await timedRun(workers, seconds, () => spendOnce(deps, pick()));
  return {
    ...run,
    p50: quantile(run.latencies, 0.5),
    p99: quantile(run.latencies, 0.99),
    count: run.latencies.length,
  };
}

/** Runs the same figure-producing phase several times and pools what it measured. */
export function pooled(rounds: Figures[], latencies: number[][]): Figures {
  const all = latencies.flat();
  return {
    rate: rounds.reduce((sum, r) => sum + r.rate, 0) / rounds.length,
    p50: quantile(all, 0.5),
    p99: quantile(all, 0.99),
    count: rounds.reduce((sum, r) => sum + r.count, 0),
    failures: rounds.reduce((sum, r) => sum + r.failures, 0),
  };
}

export interface Ledger {
  database: Database;
  deps: WorkDeps;
  users: number[];
  /** `PostgreSQL <version>`. */
  server: string;
  /** Checks the books and closes the database; throws when they do not balance. */
  close(): Promise<void>;
}

/**
 * The app's database at `url` (migrated on open, the system accounts opened) with `users` users ready to spend, a
 * pool of `workers` connections, and what a unit of work needs.
 */
export async function openLedger(
  url: string,
  o: { users: number; workers: number; log: (line: string) => void },
): Promise<Ledger> {
  const database = await openDatabase({ databaseUrl: url, poolSize: o.workers });
  try {
    const deps: WorkDeps = { db: database.db, bus: new MemoryBus() };
    await ensureSystemAccounts(database.db);
    const [version] = await sqlRows<{ v: string }>(database.db, sql`SELECT current_setting('server_version') AS v`);
    o.log(`creating ${o.users} users with ${START_BALANCE} cents each…`);
    const users = await createUsers(database, deps, o.users, o.workers);
    return {
      database,
      deps,
      users,
      server: `PostgreSQL ${version!.v}`,
      async close() {
        const books = await checkConservation(database.db).finally(() => database.close());
        if (!books.ok) throw new Error(`the books do not balance after the run: ${JSON.stringify(books)}`);
      },
    };
  } catch (err) {
    await database.close();
    throw err;
  }
}
