import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { freshPostgresDatabase } from '../server/src/test/databases';
import { parsePgbench, type PgbenchFigures } from './ledger/stats';

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
  return {
    args,
    async run() {
      const { stdout } = await exec('pgbench', [...args, fresh.url], { maxBuffer: 16 * 1024 * 1024 });
      return parsePgbench(stdout);
    },
    close: () => fresh.drop(),
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
