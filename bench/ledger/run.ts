/**
 * `npm run bench:ledger`: spends per second through the ledger on PostgreSQL, next to pgbench's TPC-B rate on the
 * same server in the same run. Each side gets a fresh database that is dropped afterwards.
 *
 *   BENCH_DATABASE_URL (else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test)
 *   BENCH_USERS=1000  BENCH_WORKERS=16  BENCH_SECONDS=10  BENCH_PGBENCH_SCALE=16
 */
import { execFile } from 'node:child_process';
import os from 'node:os';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { openDatabase, rows, type Database } from '../../server/src/db/connection';
import { transact, type WorkDeps } from '../../server/src/db/unit-of-work';
import { creditTopUp, ensureSystemAccounts, openUserAccounts, spend } from '../../server/src/ledger/commands';
import { checkConservation } from '../../server/src/ledger/conservation';
import { MemoryBus } from '../../server/src/live/bus';
import { freshPostgresDatabase } from '../../server/src/test/databases';
import { fmt, parsePgbench, quantile } from './stats';

const run = promisify(execFile);

function setting(name: string, fallback: number): number {
  const n = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive whole number`);
  return n;
}

const baseUrl = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const USERS = setting('BENCH_USERS', 1000);
const WORKERS = setting('BENCH_WORKERS', 16);
const SECONDS = setting('BENCH_SECONDS', 10);
const SCALE = setting('BENCH_PGBENCH_SCALE', 16);
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
  const created = await rows<{ id: number }>(
    database.db,
    sql`INSERT INTO users (username, email, badge)
        SELECT 'bench_' || i, 'bench_' || i || '@example.test', 'BENCH' || i FROM generate_series(1, ${USERS}) i
        RETURNING id`,
  );
  const ids = created.map((r) => r.id);
  await inParallel(ids, async (id) => {
    await openUserAccounts(database.db, id);
    await transact(deps, (w) => creditTopUp(w, id, START_BALANCE, `bench-${id}`));
  });
  return ids;
}

async function inParallel<T>(items: T[], fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

/** WORKERS loops, each running one spend transaction after another for `seconds`. */
async function spends(deps: WorkDeps, seconds: number, pick: () => number): Promise<Figures> {
  const latencies: number[] = [];
  let failures = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        try {
          await transact(deps, (w) => spend(w, { userId: pick(), amount: SPEND, kind: 'TEST' }));
          latencies.push(performance.now() - t0);
        } catch {
          failures++;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return {
    rate: latencies.length / elapsed,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    count: latencies.length,
    failures,
  };
}

async function ledgerRun(): Promise<{ spread: Figures; hot: Figures; booksOk: boolean; server: string }> {
  const fresh = await freshPostgresDatabase(baseUrl);
  try {
    const database = await openDatabase({ databaseUrl: fresh.url, poolSize: WORKERS });
    try {
      const deps: WorkDeps = { db: database.db, bus: new MemoryBus() };
      await ensureSystemAccounts(database.db);
      const [version] = await rows<{ v: string }>(database.db, sql`SELECT current_setting('server_version') AS v`);
      log(`creating ${USERS} users with ${START_BALANCE} cents each…`);
      const users = await createUsers(database, deps);
      const anyone = () => users[Math.floor(Math.random() * users.length)]!;
      const hotUser = users[0]!;

      log('warming up for 1 s…');
      await spends(deps, 1, anyone);
      log(`spends from ${USERS} users, ${WORKERS} workers, ${SECONDS} s…`);
      const spread = await spends(deps, SECONDS, anyone);
      log(`spends all from one user (the hot row), ${WORKERS} workers, ${SECONDS} s…`);
      const hot = await spends(deps, SECONDS, () => hotUser);
      const books = await checkConservation(database.db);
      return { spread, hot, booksOk: books.ok, server: `PostgreSQL ${version!.v}` };
    } finally {
      await database.close();
    }
  } finally {
    await fresh.drop();
  }
}

async function pgbenchRun(): Promise<{ tps: number; latencyMs: number | undefined; command: string }> {
  const fresh = await freshPostgresDatabase(baseUrl);
  try {
    log(`pgbench: initialising scale ${SCALE}…`);
    await run('pgbench', ['-i', '-q', '-s', String(SCALE), fresh.url], { maxBuffer: 16 * 1024 * 1024 });
    const args = ['-c', String(WORKERS), '-j', '2', '-T', String(SECONDS), '-n'];
    log(`pgbench ${args.join(' ')} (TPC-B)…`);
    const { stdout } = await run('pgbench', [...args, fresh.url], { maxBuffer: 16 * 1024 * 1024 });
    return { ...parsePgbench(stdout), command: `pgbench ${args.join(' ')}` };
  } finally {
    await fresh.drop();
  }
}

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

async function main(): Promise<void> {
  const ours = await ledgerRun();
  const pgb = await pgbenchRun();
  const ratio = (f: Figures) => fmt(f.rate / pgb.tps, 2);
  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
  const lines = [
    `Ledger benchmark, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    `Machine: ${os.cpus().length} cores (${cpu}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${ours.server}; client and server on the same machine.`,
    '',
    '| workload | transactions/s | p50 latency | p99 latency | ratio to pgbench |',
    '|---|---:|---:|---:|---:|',
    `| ledger spend of ${SPEND}¢, random user of ${USERS}, ${WORKERS} workers | ${fmt(ours.spread.rate)} | ${fmt(ours.spread.p50, 1)} ms | ${fmt(ours.spread.p99, 1)} ms | **${ratio(ours.spread)}** |`,
    `| ledger spend of ${SPEND}¢, all from one user (hot row), ${WORKERS} workers | ${fmt(ours.hot.rate)} | ${fmt(ours.hot.p50, 1)} ms | ${fmt(ours.hot.p99, 1)} ms | ${ratio(ours.hot)} |`,
    `| pgbench TPC-B, scale ${SCALE}, \`${pgb.command}\` | ${fmt(pgb.tps)} | ${pgb.latencyMs === undefined ? '–' : `${fmt(pgb.latencyMs, 1)} ms (mean)`} | – | 1.00 |`,
    '',
    `Spends: ${ours.spread.count + ours.hot.count} committed, ${ours.spread.failures + ours.hot.failures} failed; books balanced afterwards: ${ours.booksOk ? 'yes' : 'NO'}.`,
    `Goal: ledger spends at least half of pgbench's rate: ${ours.spread.rate / pgb.tps >= 0.5 ? 'met' : 'NOT met'}.`,
    `Rerun: BENCH_DATABASE_URL=${baseUrl} BENCH_USERS=${USERS} BENCH_WORKERS=${WORKERS} BENCH_SECONDS=${SECONDS} npm run bench:ledger`,
  ];
  console.log(lines.join('\n'));
  if (!ours.booksOk) process.exitCode = 1;
}

await main();
