/**
 * `npm run bench:ledger`: spends per second through the ledger on PostgreSQL, next to pgbench's TPC-B rate on the
 * same server in the same run. Each side gets a fresh database that is dropped afterwards. The two alternate in
 * rounds, so a machine whose load drifts during the run (a shared CI box) weighs on both alike.
 *
 *   BENCH_DATABASE_URL (else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test)
 *   BENCH_USERS=1000  BENCH_WORKERS=16  BENCH_SECONDS=10 (per round)  BENCH_ROUNDS=3  BENCH_PGBENCH_SCALE=16
 */
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { openDatabase, sqlRows, type Database } from '../../server/src/db/connection';
import { transact, type WorkDeps } from '../../server/src/db/unit-of-work';
import { creditTopUp, ensureSystemAccounts, openUserAccounts, spend } from '../../server/src/ledger/commands';
import { checkConservation } from '../../server/src/ledger/conservation';
import { MemoryBus } from '../../server/src/live/bus';
import { freshPostgresDatabase } from '../../server/src/test/databases';
import {
  alternateWithPgbench,
  benchDatabaseUrl,
  benchSettings,
  inParallel,
  openPgbench,
  reportHead,
  timedRun,
} from '../pgbench';
import { fmt, quantile, type PgbenchFigures } from './stats';

const baseUrl = benchDatabaseUrl;
const { USERS, WORKERS, SECONDS, ROUNDS, SCALE } = benchSettings();
const START_BALANCE = 10_000_000; // cents: enough that no spend of the run is ever refused
const SPEND = 7;

interface Figures {
  rate: number;
  p50: number;
  p99: number;
  count: number;
  failures: number;
}

async function createUsers(database: Database, deps: WorkDeps): Promise<number[]> {
  const created = await sqlRows<{ id: number }>(
    database.db,
    sql`INSERT INTO users (username, email, badge)
        SELECT 'bench_' || i, 'bench_' || i || '@example.test', 'BENCH' || i FROM generate_series(1, ${USERS}) i
        RETURNING id`,
  );
  const ids = created.map((r) => r.id);
  await inParallel(ids, WORKERS, async (id) => {
    await openUserAccounts(database.db, id);
    await transact(deps, (w) => creditTopUp(w, id, START_BALANCE, `bench-${id}`));
  });
  return ids;
}

/** WORKERS loops, each running one spend transaction after another for `seconds`. */
async function spends(deps: WorkDeps, seconds: number, pick: () => number): Promise<Figures & { latencies: number[] }> {
  const run = await timedRun(WORKERS, seconds, () =>
    transact(deps, (w) => spend(w, { userId: pick(), amount: SPEND, kind: 'TEST' })),
  );
  return {
    ...run,
    p50: quantile(run.latencies, 0.5),
    p99: quantile(run.latencies, 0.99),
    count: run.latencies.length,
  };
}

/** Runs the same figure-producing phase several times and pools what it measured. */
function pooled(rounds: Figures[], latencies: number[][]): Figures {
  const all = latencies.flat();
  return {
    rate: rounds.reduce((sum, r) => sum + r.rate, 0) / rounds.length,
    p50: quantile(all, 0.5),
    p99: quantile(all, 0.99),
    count: rounds.reduce((sum, r) => sum + r.count, 0),
    failures: rounds.reduce((sum, r) => sum + r.failures, 0),
  };
}

interface Ledger {
  deps: WorkDeps;
  users: number[];
  server: string;
  close(): Promise<void>;
}

async function openLedger(): Promise<Ledger> {
  const fresh = await freshPostgresDatabase(baseUrl);
  const database = await openDatabase({ databaseUrl: fresh.url, poolSize: WORKERS });
  const bus = new MemoryBus();
  const deps: WorkDeps = { db: database.db, bus };
  await ensureSystemAccounts(database.db);
  const [version] = await sqlRows<{ v: string }>(database.db, sql`SELECT current_setting('server_version') AS v`);
  log(`creating ${USERS} users with ${START_BALANCE} cents each…`);
  const users = await createUsers(database, deps);
  return {
    deps,
    users,
    server: `PostgreSQL ${version!.v}`,
    async close() {
      const books = await checkConservation(database.db);
      await database.close();
      await fresh.drop();
      if (!books.ok) throw new Error(`the books do not balance after the run: ${JSON.stringify(books)}`);
    },
  };
}

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

async function main(): Promise<void> {
  const ledger = await openLedger();
  const pgbench = await openPgbench(baseUrl, { scale: SCALE, workers: WORKERS, seconds: SECONDS, log }).catch(
    async (err) => {
      await ledger.close();
      throw err;
    },
  );
  const spreadRounds: Figures[] = [];
  const spreadLatencies: number[][] = [];
  const pgbenchRounds: PgbenchFigures[] = [];
  let hot: Figures;
  try {
    const anyone = () => ledger.users[Math.floor(Math.random() * ledger.users.length)]!;
    const hotUser = ledger.users[0]!;
    log('warming up for 1 s…');
    await spends(ledger.deps, 1, anyone);
    const rounds = await alternateWithPgbench(pgbench, {
      rounds: ROUNDS,
      what: `ledger spends from ${USERS} users, ${WORKERS} workers, ${SECONDS} s`,
      unit: 'spends',
      log,
      run: () => spends(ledger.deps, SECONDS, anyone),
    });
    for (const { latencies, ...figures } of rounds.runs) {
      spreadRounds.push(figures);
      spreadLatencies.push(latencies);
    }
    pgbenchRounds.push(...rounds.pgbench);
    log(`ledger spends all from one user (the hot row), ${WORKERS} workers, ${SECONDS} s…`);
    const { latencies: _hot, ...hotFigures } = await spends(ledger.deps, SECONDS, () => hotUser);
    hot = hotFigures;
  } finally {
    await pgbench.close();
    await ledger.close();
  }

  const spread = pooled(spreadRounds, spreadLatencies);
  const tps = pgbenchRounds.reduce((sum, r) => sum + r.tps, 0) / pgbenchRounds.length;
  const latencies = pgbenchRounds.map((r) => r.latencyMs).filter((l) => l !== undefined);
  const pgLatency = latencies.length ? latencies.reduce((a, b) => a + b, 0) / latencies.length : NaN;
  const ratio = (f: Figures) => fmt(f.rate / tps, 2);
  const perRound = spreadRounds.map((r, i) => `${fmt(r.rate)} / ${fmt(pgbenchRounds[i]!.tps)}`).join(', ');
  const lines = [
    ...reportHead(
      'Ledger benchmark',
      `${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${ledger.server}; client and server on the same machine`,
    ),
    `| ledger spend of ${SPEND}¢, random user of ${USERS}, ${WORKERS} workers | ${fmt(spread.rate)} | ${fmt(spread.p50, 1)} ms | ${fmt(spread.p99, 1)} ms | **${ratio(spread)}** |`,
    `| ledger spend of ${SPEND}¢, all from one user (hot row), ${WORKERS} workers | ${fmt(hot.rate)} | ${fmt(hot.p50, 1)} ms | ${fmt(hot.p99, 1)} ms | ${ratio(hot)} |`,
    `| pgbench TPC-B, scale ${SCALE}, \`pgbench ${pgbench.args.join(' ')}\` | ${fmt(tps)} | ${fmt(pgLatency, 1)} ms (mean) | – | 1.00 |`,
    '',
    `Rates are means over ${ROUNDS} alternating rounds of ${SECONDS} s (ledger / pgbench per round: ${perRound}); the hot-row run is one round.`,
    `Spends: ${spread.count + hot.count} committed, ${spread.failures + hot.failures} failed; books balanced afterwards: yes.`,
    `Goal: ledger spends at least half of pgbench's rate: ${spread.rate / tps >= 0.5 ? 'met' : 'NOT met'}.`,
    `Rerun: BENCH_DATABASE_URL=${baseUrl} BENCH_USERS=${USERS} BENCH_WORKERS=${WORKERS} BENCH_SECONDS=${SECONDS} BENCH_ROUNDS=${ROUNDS} npm run bench:ledger`,
  ];
  console.log(lines.join('\n'));
}

await main();
