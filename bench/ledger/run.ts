/**
 * `npm run bench:ledger`: spends per second through the ledger on PostgreSQL, next to pgbench's TPC-B rate on the
 * same server in the same run. A spend is a transaction of its own in one round trip (`spendAlone`: BEGIN, the call
 * of `ledger_spend` and COMMIT as one query). Each side gets a fresh database that is dropped afterwards. The two alternate in
 * rounds, so a machine whose load drifts during the run (a shared CI box) weighs on both alike.
 *
 *   BENCH_DATABASE_URL (else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test)
 *   BENCH_USERS=1000  BENCH_WORKERS=16  BENCH_SECONDS=10 (per round)  BENCH_ROUNDS=3  BENCH_PGBENCH_SCALE=16
 */
import os from 'node:os';
import { freshPostgresDatabase } from '../../server/src/test/databases';
import { reportFigure } from '../figures';
import {
  alternateWithPgbench,
  benchDatabaseUrl,
  benchSettings,
  openPgbench,
  pgbenchRow,
  reportHead,
  tpcb,
} from '../pgbench';
import { openLedger as openLedgerAt, pooled, SPEND, spends, type Figures, type Ledger } from './spends';
import { fmt, type PgbenchFigures } from './stats';

const baseUrl = benchDatabaseUrl;
const { USERS, WORKERS, SECONDS, ROUNDS, SCALE } = benchSettings();

/** The ledger on a fresh database of the bench server, dropped on close. */
async function openLedger(): Promise<Ledger> {
  const fresh = await freshPostgresDatabase(baseUrl);
  const ledger = await openLedgerAt(fresh.url, { users: USERS, workers: WORKERS, log }).catch(async (err) => {
    await fresh.drop();
    throw err;
  });
  return { ...ledger, close: () => ledger.close().finally(() => fresh.drop()) };
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
    await spends(ledger.deps, WORKERS, 1, anyone);
    const rounds = await alternateWithPgbench(pgbench, {
      rounds: ROUNDS,
      what: `ledger spends from ${USERS} users, ${WORKERS} workers, ${SECONDS} s`,
      unit: 'spends',
      log,
      run: () => spends(ledger.deps, WORKERS, SECONDS, anyone),
    });
    for (const { latencies, ...figures } of rounds.runs) {
      spreadRounds.push(figures);
      spreadLatencies.push(latencies);
    }
    pgbenchRounds.push(...rounds.pgbench);
    log(`ledger spends all from one user (the hot row), ${WORKERS} workers, ${SECONDS} s…`);
    const { latencies: _hot, ...hotFigures } = await spends(ledger.deps, WORKERS, SECONDS, () => hotUser);
    hot = hotFigures;
  } finally {
    await pgbench.close();
    await ledger.close();
  }

  const spread = pooled(spreadRounds, spreadLatencies);
  const { tps, p99: tpcbP99 } = tpcb(pgbenchRounds);
  const ratio = (f: Figures) => fmt(f.rate / tps, 2);
  const perRound = spreadRounds.map((r, i) => `${fmt(r.rate)} / ${fmt(pgbenchRounds[i]!.tps)}`).join(', ');
  const rerun = `BENCH_DATABASE_URL=${baseUrl} BENCH_USERS=${USERS} BENCH_WORKERS=${WORKERS} BENCH_SECONDS=${SECONDS} BENCH_ROUNDS=${ROUNDS} npm run bench:ledger`;
  // Issue 28's goals: spends at 1.2 × TPC-B, the one-user hot row at 0.6 ×, a spend's p99 under 20 ms.
  const goals = { spread: 1.2, hot: 0.6, p99Ms: 20 };
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const lines = [
    ...reportHead(
      'Ledger benchmark',
      `${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${ledger.server}; client and server on the same machine`,
    ),
    `| ledger spend of ${SPEND}¢, random user of ${USERS}, ${WORKERS} workers | ${fmt(spread.rate)} | ${fmt(spread.p50, 1)} ms | ${fmt(spread.p99, 1)} ms | **${ratio(spread)}** |`,
    `| ledger spend of ${SPEND}¢, all from one user (hot row), ${WORKERS} workers | ${fmt(hot.rate)} | ${fmt(hot.p50, 1)} ms | ${fmt(hot.p99, 1)} ms | ${ratio(hot)} |`,
    pgbenchRow(SCALE, pgbench, pgbenchRounds),
    '',
    `Rates are means over ${ROUNDS} alternating rounds of ${SECONDS} s (ledger / pgbench per round: ${perRound}); the hot-row run is one round.`,
    `Spends: ${spread.count + hot.count} committed, ${spread.failures + hot.failures} failed; books balanced afterwards: yes.`,
    `Goal (issue 28): spends at least ${goals.spread} × TPC-B: ${met(spread.rate / tps >= goals.spread)}; ` +
      `the hot row at least ${goals.hot} ×: ${met(hot.rate / tps >= goals.hot)}; ` +
      `spend p99 under ${goals.p99Ms} ms: ${met(spread.p99 < goals.p99Ms)}.`,
    `Rerun: ${rerun}`,
  ];
  reportFigure({
    bench: 'bench:ledger',
    figure: `spend, random user of ${USERS}, ${WORKERS} workers, ratio to TPC-B`,
    value: Number((spread.rate / tps).toFixed(2)),
    unit: '×',
    goal: { atLeast: goals.spread },
    rerun,
  });
  reportFigure({
    bench: 'bench:ledger',
    figure: `spend, all from one user (hot row), ${WORKERS} workers, ratio to TPC-B`,
    value: Number((hot.rate / tps).toFixed(2)),
    unit: '×',
    goal: { atLeast: goals.hot },
    rerun,
  });
  reportFigure({
    bench: 'bench:ledger',
    figure: `spend p99, random user of ${USERS}, ${WORKERS} workers`,
    value: Number(spread.p99.toFixed(1)),
    unit: 'ms',
    goal: { below: goals.p99Ms },
    rerun,
  });
  reportFigure({
    bench: 'bench:ledger',
    figure: 'TPC-B p99, the same run',
    value: Number(tpcbP99.toFixed(1)),
    unit: 'ms',
    rerun,
  });
  console.log(lines.join('\n'));
}

await main();
