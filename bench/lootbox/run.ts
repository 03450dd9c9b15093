/**
 * `npm run bench:lootbox`: lootbox openings per second on PostgreSQL (a box and a key taken, the provably fair draw,
 * five items minted, the opening recorded), next to pgbench's TPC-B rate on the same server in the same run, as a
 * ratio. Rounds alternate between the two so a drifting load weighs on both alike. An opening is the route's: one
 * call of the database's lootbox_open, its BEGIN and COMMIT in the same round trip (openLootboxInOneCall). Every user
 * has their seed before the run, as they would after their first opening. Hands bench:all its figures (figures.ts):
 * the ratio to TPC-B (goal ≥ 0.7) and the p99 latency (goal under 25 ms), docs/performance.md "Lootboxes".
 *
 *   BENCH_DATABASE_URL (else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test)
 *   BENCH_USERS=1000  BENCH_WORKERS=16  BENCH_SECONDS=10 (per round)  BENCH_ROUNDS=3  BENCH_PGBENCH_SCALE=16
 *   BENCH_CEILING=1: pgbench sends the openings instead of the app (`SELECT lootbox_open(…)`, each a transaction of
 *   its own): the database's own ceiling, what the rate could reach if the app cost nothing
 */
import { sql } from 'drizzle-orm';
import { sqlRows } from '../../server/src/db/connection';
import type { WorkDeps } from '../../server/src/db/unit-of-work';
import { openUserAccounts } from '../../server/src/ledger/commands';
import { checkConservation } from '../../server/src/ledger/conservation';
import { oneCaller } from '../../server/src/db/one-call';
import { openLootboxInOneCall } from '../../server/src/modules/lootboxes/lootboxes.commands';
import { ensureSeed } from '../../server/src/modules/lootboxes/seeds';
import { reportFigure } from '../figures';
import {
  alternateWithPgbench,
  benchDatabaseUrl,
  benchSettings,
  inParallel,
  openBench,
  pgbenchRow,
  pgbenchScript,
  reportHead,
  timedRun,
  tpcb,
  type TimedRun,
} from '../pgbench';
import { ODDS_VERSION } from '../../common/fairness';
import { fmt, quantile, type PgbenchFigures } from '../ledger/stats';

const { USERS, WORKERS, SECONDS, ROUNDS, SCALE } = benchSettings();
/** Boxes and keys each user starts with: more than any run opens. */
const STOCK = 1_000_000;

const log = (line: string) => process.stderr.write(`${line}\n`);

const CEILING = process.env.BENCH_CEILING === '1';

/** A round of openings from pgbench, no Node in the loop (BENCH_CEILING=1); users are numbered without gaps. */
async function ceilingRound(url: string, users: number[]): Promise<TimedRun> {
  const script = `\\set u random(${Math.min(...users)}, ${Math.max(...users)})\nSELECT lootbox_open(:u, ${ODDS_VERSION}, now());\n`;
  const r = await pgbenchScript(url, script, { workers: WORKERS, seconds: SECONDS });
  return { rate: r.tps, latencies: r.latenciesMs, refused: 0, failures: 0 };
}

const openings = (deps: WorkDeps, users: number[], seconds: number) => {
  const caller = oneCaller(deps);
  return timedRun(WORKERS, seconds, () =>
    openLootboxInOneCall(caller, users[Math.floor(Math.random() * users.length)]!, new Date()),
  );
};

async function main(): Promise<void> {
  const { database, url, deps, pgbench, close } = await openBench({
    workers: WORKERS,
    seconds: SECONDS,
    scale: SCALE,
    log,
  });
  const rates: number[] = [];
  const tpcbRounds: PgbenchFigures[] = [];
  const latencies: number[] = [];
  let failures = 0;
  let nodeCpuMs = 0;
  let books;
  try {
    log(`creating ${USERS} users with boxes and keys…`);
    const users = (
      await sqlRows<{ id: number }>(
        database.db,
        sql`INSERT INTO users (username, email, badge, key_count, loot_box_count)
            SELECT 'bench_' || i, NULL, 'BENCH' || i, ${STOCK}, ${STOCK} FROM generate_series(1, ${USERS}) i
            RETURNING id`,
      )
    ).map((r) => r.id);
    await inParallel(users, WORKERS, async (id) => {
      await openUserAccounts(database.db, id);
      await ensureSeed(database.db, id);
    });
    log('warming up for 1 s…');
    await openings(deps, users, 1);
    const rounds = await alternateWithPgbench(pgbench, {
      rounds: ROUNDS,
      what: `lootbox openings${CEILING ? ' from pgbench' : ''}, ${WORKERS} workers, ${SECONDS} s`,
      unit: 'openings',
      log,
      run: async () => {
        const cpu = process.cpuUsage();
        const r = await (CEILING ? ceilingRound(url, users) : openings(deps, users, SECONDS));
        const used = process.cpuUsage(cpu);
        nodeCpuMs += (used.user + used.system) / 1000;
        return r;
      },
    });
    for (const r of rounds.runs) {
      rates.push(r.rate);
      latencies.push(...r.latencies);
      failures += r.failures;
    }
    tpcbRounds.push(...rounds.pgbench);
    books = await checkConservation(database.db);
  } finally {
    await close();
  }
  if (!books.ok) throw new Error(`the books do not balance after the run: ${JSON.stringify(books)}`);

  const rate = rates.reduce((a, b) => a + b, 0) / rates.length;
  const { tps, p99: tpcbP99 } = tpcb(tpcbRounds);
  const p99 = quantile(latencies, 0.99);
  const rerun = `BENCH_DATABASE_URL=${benchDatabaseUrl} BENCH_USERS=${USERS} BENCH_WORKERS=${WORKERS} BENCH_SECONDS=${SECONDS} BENCH_ROUNDS=${ROUNDS}${CEILING ? ' BENCH_CEILING=1' : ''} npm run bench:lootbox`;
  console.log(
    [
      ...reportHead('Lootbox benchmark'),
      `| lootbox opening (5 items minted)${CEILING ? ' from pgbench, no app' : ''}, random user of ${USERS}, ${WORKERS} workers | ${fmt(rate)} | ${fmt(quantile(latencies, 0.5), 1)} ms | ${fmt(p99, 1)} ms | **${fmt(rate / tps, 2)}** |`,
      pgbenchRow(SCALE, pgbench, tpcbRounds),
      '',
      `Means over ${ROUNDS} alternating rounds of ${SECONDS} s (openings / pgbench per round: ${rates.map((r, i) => `${fmt(r)} / ${fmt(tpcbRounds[i]!.tps)}`).join(', ')}).`,
      `Openings: ${latencies.length} committed, ${failures} failed; books and items balanced afterwards: yes (${books.itemsMinted} items minted). ` +
        `This process used ${fmt(nodeCpuMs / Math.max(1, latencies.length + failures), 3)} ms of CPU per opening (the app's code, drizzle and pg, on the same cores as PostgreSQL).`,
      `Rerun: ${rerun}`,
    ].join('\n'),
  );
  const what = `lootbox opening (5 items minted)${CEILING ? ' from pgbench, no app (the ceiling)' : ''}, random user of ${USERS}, ${WORKERS} workers`;
  reportFigure({
    bench: 'bench:lootbox',
    figure: `${what}, ratio to TPC-B`,
    value: Number((rate / tps).toFixed(2)),
    unit: '×',
    goal: CEILING ? undefined : { atLeast: 0.7 },
    rerun,
  });
  reportFigure({
    bench: 'bench:lootbox',
    figure: `${what}, p99 latency`,
    value: Number(p99.toFixed(1)),
    unit: 'ms',
    goal: CEILING ? undefined : { below: 25 },
    rerun,
  });
  reportFigure({
    bench: 'bench:lootbox',
    figure: 'TPC-B p99, the same run',
    value: Number(tpcbP99.toFixed(1)),
    unit: 'ms',
    rerun,
  });
}

await main();
