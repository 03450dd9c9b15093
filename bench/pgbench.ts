import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { openDatabase, type Database } from '../server/src/db/connection';
import type { WorkDeps } from '../server/src/db/unit-of-work';
import { ensureSystemAccounts } from '../server/src/ledger/commands';
import { MemoryBus } from '../server/src/live/bus';
import { freshPostgresDatabase } from '../server/src/test/databases';
import { fmt, parsePgbench, parsePgbenchLog, quantile, type PgbenchFigures } from './ledger/stats';

/**
 * pgbench's TPC-B on a fresh database of the same server, as the yardstick the database benchmarks print beside
 * their own rate: the machine's ceiling for small write transactions.
 */
export interface Pgbench {
  args: string[];
  run(): Promise<PgbenchFigures>;
  close(): Promise<void>;
}

const exec = promisify(execFile);

export async function openPgbench(
  baseUrl: string,
  opts: { scale: number; workers: number; seconds: number; log: (line: string) => void },
): Promise<Pgbench> {
  const fresh = await freshPostgresDatabase(baseUrl);
  opts.log(`pgbench: initialising scale ${opts.scale}…`);
  await exec('pgbench', ['-i', '-q', '-s', String(opts.scale), fresh.url], { maxBuffer: 16 * 1024 * 1024 });
  const args = ['-c', String(opts.workers), '-j', '2', '-T', String(opts.seconds), '-n'];
  return { args, run: () => runPgbench(args, fresh.url), close: () => fresh.drop() };
}

/**
 * pgbench run with `args` against `url`: its rate, and each transaction's latency from its per-transaction log
 * (`-l`, one file a thread), for the p50 and p99 beside a call's.
 */
async function runPgbench(args: string[], url: string): Promise<PgbenchFigures> {
  const logs = mkdtempSync(path.join(os.tmpdir(), 'pgbench-log-'));
  try {
    const { stdout } = await exec('pgbench', [...args, '-l', `--log-prefix=${path.join(logs, 'tx')}`, url], {
      maxBuffer: 16 * 1024 * 1024,
    });
    const latenciesMs = readdirSync(logs).flatMap((f) => parsePgbenchLog(readFileSync(path.join(logs, f), 'utf8')));
    return { ...parsePgbench(stdout), latenciesMs };
  } finally {
    rmSync(logs, { recursive: true, force: true });
  }
}

/**
 * pgbench as the client of a money call, with no Node in the loop: `script` (pgbench's script language) run by
 * `workers` clients for `seconds` against the app's database at `url`, each transaction of its own, as the app's
 * one call is. What the call's rate could reach if the app cost nothing (docs/performance.md).
 */
export async function pgbenchScript(
  url: string,
  script: string,
  o: { workers: number; seconds: number },
): Promise<PgbenchFigures> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pgbench-script-'));
  try {
    writeFileSync(path.join(dir, 'call.sql'), script);
    const args = ['-c', String(o.workers), '-j', '2', '-T', String(o.seconds), '-n', '-f', path.join(dir, 'call.sql')];
    return await runPgbench(args, url);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The app's database, fresh (migrated, the system accounts opened), with what a unit of work needs, and pgbench
 * beside it on the same server; `close` drops both.
 */
export async function openBench(o: {
  workers: number;
  seconds: number;
  scale: number;
  log: (line: string) => void;
}): Promise<{ database: Database; url: string; deps: WorkDeps; pgbench: Pgbench; close(): Promise<void> }> {
  const fresh = await freshPostgresDatabase(benchDatabaseUrl);
  const database = await openDatabase({ databaseUrl: fresh.url, poolSize: o.workers });
  const bus = new MemoryBus();
  const deps: WorkDeps = { db: database.db, bus };
  await ensureSystemAccounts(database.db);
  const pgbench = await openPgbench(benchDatabaseUrl, o);
  return {
    database,
    url: fresh.url,
    deps,
    pgbench,
    async close() {
      await pgbench.close();
      await database.close();
      await fresh.drop();
    },
  };
}

/** Runs `fn` over `items` with `workers` loops at once. */
export async function inParallel<T>(items: T[], workers: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

export function setting(name: string, fallback: number): number {
  const n = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive whole number`);
  return n;
}

/** What every database benchmark takes: BENCH_USERS, BENCH_WORKERS, BENCH_SECONDS (a round), BENCH_ROUNDS, BENCH_PGBENCH_SCALE. */
export const benchSettings = () => ({
  USERS: setting('BENCH_USERS', 1000),
  WORKERS: setting('BENCH_WORKERS', 16),
  SECONDS: setting('BENCH_SECONDS', 10),
  ROUNDS: setting('BENCH_ROUNDS', 3),
  SCALE: setting('BENCH_PGBENCH_SCALE', 16),
});

export const benchDatabaseUrl =
  process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

/** What a timed run of transactions measured: committed ones' latencies (ms), the refusals and the failures. */
export interface TimedRun {
  rate: number;
  latencies: number[];
  /** Transactions that threw an error `refused` accepted as an answer (a 4xx to the user, say), not a failure. */
  refused: number;
  failures: number;
}

/**
 * `workers` loops, each running `once` after another for `seconds`; rate is committed transactions per second. An
 * error for which `refused` is true counts as a refusal, any other as a failure; neither adds a latency.
 */
export async function timedRun(
  workers: number,
  seconds: number,
  once: () => Promise<unknown>,
  refused: (err: unknown) => boolean = () => false,
): Promise<TimedRun> {
  const latencies: number[] = [];
  let refusals = 0;
  let failures = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        try {
          await once();
          latencies.push(performance.now() - t0);
        } catch (err) {
          if (refused(err)) refusals++;
          else failures++;
        }
      }
    }),
  );
  return { rate: latencies.length / ((performance.now() - started) / 1000), latencies, refused: refusals, failures };
}

/**
 * `rounds` rounds alternating between the benchmark's own `run` and pgbench, so that a load drifting during the run
 * weighs on both alike; each round's figures are logged (`unit` per second) and answered.
 */
export async function alternateWithPgbench<R extends { rate: number }>(
  pgbench: Pgbench,
  o: { rounds: number; what: string; unit: string; log: (line: string) => void; run: () => Promise<R> },
): Promise<{ runs: R[]; pgbench: PgbenchFigures[] }> {
  const runs: R[] = [];
  const figures: PgbenchFigures[] = [];
  for (let round = 1; round <= o.rounds; round++) {
    o.log(`round ${round}/${o.rounds}: ${o.what}…`);
    runs.push(await o.run());
    o.log(`  ${fmt(runs.at(-1)!.rate)} ${o.unit}/s`);
    o.log(`round ${round}/${o.rounds}: pgbench ${pgbench.args.join(' ')} (TPC-B)…`);
    figures.push(await pgbench.run());
    o.log(`  ${fmt(figures.at(-1)!.tps)} tps`);
  }
  return { runs, pgbench: figures };
}

/** TPC-B's rate and latencies over the rounds of a run: the yardstick's row of a report. */
export function tpcb(rounds: PgbenchFigures[]): { tps: number; p50: number; p99: number } {
  const latencies = rounds.flatMap((r) => r.latenciesMs);
  return {
    tps: rounds.reduce((sum, r) => sum + r.tps, 0) / rounds.length,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
  };
}

/**
 * The report's row for TPC-B, with its own p50 and p99 in the same run: a call's p99 is read beside the p99 this
 * machine gives its simplest write transaction (docs/performance.md, "All benchmarks").
 */
export function pgbenchRow(scale: number, pgbench: Pgbench, rounds: PgbenchFigures[]): string {
  const t = tpcb(rounds);
  return `| pgbench TPC-B, scale ${scale}, \`pgbench ${pgbench.args.join(' ')}\` | ${fmt(t.tps)} | ${fmt(t.p50, 1)} ms | ${fmt(t.p99, 1)} ms | 1.00 |`;
}

/**
 * The head of a database benchmark's report: its title and time, the machine (`machine` says what else to name
 * after the cores) with its load at the end, and the header of the table of figures, whose last column is each
 * rate's ratio to `yardstick`'s.
 */
export function reportHead(title: string, machine = `Node ${process.version}`, yardstick = 'pgbench'): string[] {
  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
  return [
    `${title}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    `Machine: ${os.cpus().length} cores (${cpu}), ${machine}; load average at the end ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}.`,
    '',
    `| workload | transactions/s | p50 latency | p99 latency | ratio to ${yardstick} |`,
    '|---|---:|---:|---:|---:|',
  ];
}
