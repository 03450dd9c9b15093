/**
 * `npm run bench:market`: market orders per second with matching, on PostgreSQL, next to pgbench's TPC-B rate on the
 * same server in the same run, as a ratio. Rounds alternate between the two so a drifting load weighs on both alike.
 *
 * Many users each hold money and units of many items (minted through the ledger, as the test factories do); workers
 * call the market's commands each as a transaction of its own in one round trip, as the routes do, with a mix of sell offers and buy offers priced
 * around each item's mid (so that many cross and trade, the rest rest), market buys, one unit taken from another
 * user's offer each way (buy-from-user, sell-to-user, after reading the offers list as the popup does) and cancels.
 * An order the market refuses (400, 402, 404, 409: not owned, balance short, nobody sells, the price moved) is
 * counted apart from failures. After the rounds, one more run puts the same mix all on one item: its book takes orders one at a time.
 * The books are checked afterwards (money, items, escrow, holds, uncrossed books).
 *
 *   BENCH_DATABASE_URL (else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test)
 *   BENCH_USERS=1000  BENCH_WORKERS=16  BENCH_SECONDS=10 (per round)  BENCH_ROUNDS=3  BENCH_PGBENCH_SCALE=16
 *   BENCH_FEE_BPS=150 (the market's fee)  BENCH_PROFILE=1 (time every statement the orders send, and print them)
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { sqlRows } from '../../server/src/db/connection';
import { oneCaller, type OneCaller } from '../../server/src/db/one-call';
import type { WorkDeps } from '../../server/src/db/unit-of-work';
import { HttpError, notFound } from '../../server/src/http/errors';
import { checkConservation } from '../../server/src/ledger/conservation';
import { InsufficientFunds } from '../../server/src/ledger/ledger';
import {
  marketBuy,
  placeBuyOffer,
  placeSellOffer,
  TEXT,
  tradeWithUser,
  type OrderContext,
  type Ordered,
} from '../../server/src/modules/market/market.commands';
import { offersOn } from '../../server/src/modules/market/market.repository';
import {
  alternateWithPgbench,
  benchDatabaseUrl,
  benchSettings,
  openBench,
  pgbenchRow,
  reportHead,
  setting,
  timedRun,
  tpcb,
} from '../pgbench';
import { fmt, quantile } from '../ledger/stats';
import { reportFigure } from '../figures';
import { TRADED, makeTraders, midPrice } from './traders';

const { USERS, WORKERS, SECONDS, ROUNDS, SCALE } = benchSettings();
const FEE_BPS = setting('BENCH_FEE_BPS', 150);
const PROFILE = process.env.BENCH_PROFILE === '1';
/** Issue 28's goal: the mix at 0.7 of TPC-B's rate with p99 under 25 ms, the hot book at 0.4. */
const GOAL = { ratio: 0.7, p99: 25, hot: 0.4 };
/** Money each user starts with: $10,000, far more than the bids of a run escrow. */
const MONEY = 1_000_000;
/** Units of each traded item each user starts with. */
const UNITS = 100;

/** The item of the hot-book run: every order on one book, which takes them one at a time. */
const HOT_ITEM = 'COMMON_LETTER_E';
/** Each item's mid price. */
const MID = new Map(TRADED.map((item, i) => [item.itemType, midPrice(item, i)]));

const KINDS = [
  'sell offer',
  'buy offer',
  'market buy',
  'buy from user',
  'sell to user',
  'cancel sell',
  'cancel buy',
] as const;
type Kind = (typeof KINDS)[number];
/**
 * The mix, in twentieths: 6 sell offers, 6 buy offers, 2 market buys, one unit from another user's offer each way
 * (as the offers popup's Buy and Sell do), 2 cancels of each side.
 */
const MIX: readonly Kind[] = [
  ...Array<Kind>(6).fill('sell offer'),
  ...Array<Kind>(6).fill('buy offer'),
  ...Array<Kind>(2).fill('market buy'),
  'buy from user',
  'sell to user',
  ...Array<Kind>(2).fill('cancel sell'),
  ...Array<Kind>(2).fill('cancel buy'),
];

const log = (line: string) => process.stderr.write(`${line}\n`);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
const int = (lo: number, hi: number) => lo + Math.floor(Math.random() * (hi - lo + 1));
/** A price within 10% of the item's mid either way: about half of the offers cross the other side's best. */
const near = (mid: number) => Math.max(1, Math.round(mid * (0.9 + 0.2 * Math.random())));

/** What the market answered, per kind of order: latencies of the committed ones, refusals by status, units. */
interface KindTally {
  committed: number[];
  refused: Map<number, number>;
  traded: number;
  units: number;
}
type Tally = Map<Kind, KindTally>;
const newTally = (): Tally =>
  new Map(KINDS.map((k) => [k, { committed: [], refused: new Map(), traded: 0, units: 0 }]));
const failureReasons = new Map<string, number>();

/** The market's refusals are answers to the user (docs/product.md#market): 400, 402, 404, 409. */
function refusalStatus(err: unknown): number | undefined {
  if (err instanceof InsufficientFunds) return 402;
  if (err instanceof HttpError && [400, 402, 404, 409].includes(err.statusCode)) return err.statusCode;
  return undefined;
}

/** The offers list a taker of one unit chooses from (as in the offers popup): another user's offer, if any. */
async function counterpartyFor(deps: OneCaller, kind: Kind, userId: number, item: string) {
  if (kind !== 'buy from user' && kind !== 'sell to user') return undefined;
  const theirs = (await offersOn(deps.db, item, kind === 'buy from user' ? 'SELL' : 'BUY', 10)).filter(
    (o) => o.user_id !== userId,
  );
  return theirs.length > 0 ? pick(theirs) : undefined;
}

async function place(
  deps: OneCaller,
  c: () => OrderContext,
  kind: Kind,
  userId: number,
  item: string,
  counterparty?: { user_id: number; price: number },
) {
  const mid = MID.get(item)!;
  // Each order as a route sends one without an Idempotency-Key: a transaction of its own in one round trip.
  switch (kind) {
    case 'sell offer':
      return placeSellOffer(deps, c(), { userId, itemType: item, price: near(mid), quantity: int(1, 5) });
    case 'buy offer':
      return placeBuyOffer(deps, c(), { userId, itemType: item, price: near(mid), quantity: int(1, 5) });
    case 'market buy':
      return marketBuy(deps, c(), { userId, itemType: item, requestedPrice: Math.round(mid * 1.05) });
    case 'buy from user':
    case 'sell to user':
      if (!counterparty) throw notFound(TEXT.nobodySells);
      return tradeWithUser(deps, c(), {
        userId,
        itemType: item,
        side: kind === 'buy from user' ? 'BUY' : 'SELL',
        counterpartyId: counterparty.user_id,
        price: counterparty.price,
      });
    case 'cancel sell':
      return placeSellOffer(deps, c(), { userId, itemType: item, price: 0, quantity: 0 });
    case 'cancel buy':
      return placeBuyOffer(deps, c(), { userId, itemType: item, price: 0, quantity: 0 });
  }
}

/**
 * Where the orders of a phase of the run go (`items`), what they answered (`tally`, unless a warm-up), and the offers
 * placed lately, per side, for the cancels to take back (one may have traded away since: a no-op then).
 */
interface Phase {
  items: readonly string[];
  tally?: Tally;
  placed: { sell: [number, string][]; buy: [number, string][] };
}
const phase = (items: readonly string[], tally?: Tally): Phase => ({ items, tally, placed: { sell: [], buy: [] } });
const RECENT = 2_000;
function remember(list: [number, string][], offer: [number, string]): void {
  if (list.length < RECENT) list.push(offer);
  else list[Math.floor(Math.random() * RECENT)] = offer;
}
function takeBack(list: [number, string][]): [number, string] | undefined {
  if (list.length === 0) return undefined;
  const i = Math.floor(Math.random() * list.length);
  const offer = list[i]!;
  list[i] = list.at(-1)!;
  list.pop();
  return offer;
}

/**
 * One order of the mix: offers and market buys by a random user on a random item of the phase, cancels of an offer
 * placed lately.
 */
async function order(deps: OneCaller, users: number[], p: Phase): Promise<void> {
  const kind = pick(MIX);
  const { placed, tally } = p;
  const cancelled =
    kind === 'cancel sell' ? takeBack(placed.sell) : kind === 'cancel buy' ? takeBack(placed.buy) : undefined;
  const [userId, item] = cancelled ?? [pick(users), pick(p.items)];
  const counterparty = await counterpartyFor(deps, kind, userId, item);
  const t0 = performance.now();
  try {
    const run = () => place(deps, () => ({ now: new Date(), feeBps: FEE_BPS }), kind, userId, item, counterparty);
    // The async context that tells the profile which order sent a statement costs every promise a hook: only then.
    const answer: Ordered = await (PROFILE ? ordering.run(kind, run) : run());
    const filled = answer.fills.reduce((n, f) => n + f.quantity, 0);
    if (kind === 'sell offer' && answer.position.sellOffer) remember(placed.sell, [userId, item]);
    if (kind === 'buy offer' && answer.position.buyOffer) remember(placed.buy, [userId, item]);
    if (!tally) return;
    const k = tally.get(kind)!;
    k.committed.push(performance.now() - t0);
    if (filled > 0) {
      k.traded++;
      k.units += filled;
    }
  } catch (err) {
    const status = refusalStatus(err);
    if (tally && status !== undefined) {
      const refused = tally.get(kind)!.refused;
      refused.set(status, (refused.get(status) ?? 0) + 1);
    } else if (tally) {
      const reason = err instanceof Error ? `${err.constructor.name}: ${err.message}` : String(err);
      failureReasons.set(reason, (failureReasons.get(reason) ?? 0) + 1);
    }
    throw err;
  }
}

const orders = (deps: WorkDeps, users: number[], seconds: number, p: Phase) => {
  const caller = oneCaller(deps);
  return timedRun(
    WORKERS,
    seconds,
    () => order(caller, users, p),
    (err) => refusalStatus(err) !== undefined,
  );
};

/**
 * BENCH_PROFILE=1: every statement a pg client sends is timed from the call to its answer (lock waits and the round
 * trip included), grouped by its text with the parameters and the lengths of VALUES and IN lists taken out.
 */
const statements = new Map<string, { n: number; ms: number; max: number }>();
/** Statements sent per kind of order (the kind travels with the order's async context). */
const statementsOf = new Map<Kind, number>();
const ordering = new AsyncLocalStorage<Kind>();
let profiling = false;
function profileStatements(): void {
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string } | undefined;
    const text = typeof first === 'string' ? first : first?.text;
    const t0 = performance.now();
    const result = query.apply(this, args);
    if (!profiling || !text || typeof (result as Promise<unknown>)?.then !== 'function') return result;
    const kind = ordering.getStore();
    if (kind) statementsOf.set(kind, (statementsOf.get(kind) ?? 0) + 1);
    const done = () => {
      const key = shape(text);
      const ms = performance.now() - t0;
      const s = statements.get(key) ?? { n: 0, ms: 0, max: 0 };
      statements.set(key, { n: s.n + 1, ms: s.ms + ms, max: Math.max(s.max, ms) });
    };
    (result as Promise<unknown>).then(done, done);
    return result;
  } as typeof pg.Client.prototype.query;
}
const shape = (text: string) =>
  text
    .replace(/\s+/g, ' ')
    .replace(/\$\d+(::\w+)?/g, '?')
    .replace(/\(([^()]*)\)(, \(\1\))+/g, '($1), …')
    .replace(/(\?, )+\?/g, '?, …')
    .trim();

async function main(): Promise<void> {
  if (PROFILE) profileStatements();
  const { database, deps, pgbench, close } = await openBench({ workers: WORKERS, seconds: SECONDS, scale: SCALE, log });
  const tally = newTally();
  const hotTally = newTally();
  let hot;
  let rounds;
  /** CPU time this process (the app's code, drizzle, pg) spent during the measured rounds. */
  let nodeCpuMs = 0;
  let books;
  let trades;
  try {
    log(`creating ${USERS} users, each with $${MONEY / 100} and ${UNITS} units of each of ${TRADED.length} items…`);
    const users = await makeTraders(database, deps, {
      count: USERS,
      prefix: 'bench',
      money: MONEY,
      units: UNITS,
      items: TRADED,
      workers: WORKERS,
    });
    log('warming up for 3 s (filling the books)…');
    const everyItem = phase(TRADED.map((i) => i.itemType));
    await orders(deps, users, 3, everyItem);
    everyItem.tally = tally;
    rounds = await alternateWithPgbench(pgbench, {
      rounds: ROUNDS,
      what: `market orders on ${TRADED.length} items, ${WORKERS} workers, ${SECONDS} s`,
      unit: 'orders',
      log,
      run: async () => {
        profiling = PROFILE;
        const cpu = process.cpuUsage();
        const r = await orders(deps, users, SECONDS, everyItem);
        const used = process.cpuUsage(cpu);
        nodeCpuMs += (used.user + used.system) / 1000;
        profiling = false;
        log(`  ${r.refused} refused, ${r.failures} failed`);
        return r;
      },
    });
    log(`market orders all on ${HOT_ITEM} (the hot book), ${WORKERS} workers, ${SECONDS} s…`);
    hot = await orders(deps, users, SECONDS, phase([HOT_ITEM], hotTally));
    log(`  ${fmt(hot.rate)} orders/s, ${hot.refused} refused, ${hot.failures} failed`);
    books = await checkConservation(database.db);
    [trades] = await sqlRows<{ trades: number; units: number; resting: number }>(
      database.db,
      sql`SELECT (SELECT count(*) FROM trades)::int AS trades, (SELECT coalesce(sum(quantity), 0) FROM trades)::int
            AS units, (SELECT count(*) FROM market_offers)::int AS resting`,
    );
  } finally {
    await close();
  }

  const rerun = `BENCH_DATABASE_URL=${benchDatabaseUrl} BENCH_USERS=${USERS} BENCH_WORKERS=${WORKERS} BENCH_SECONDS=${SECONDS} BENCH_ROUNDS=${ROUNDS} BENCH_PGBENCH_SCALE=${SCALE} npm run bench:market`;
  const rates = rounds.runs.map((r) => r.rate);
  const refusals = rounds.runs.reduce((n, r) => n + r.refused, 0);
  const failures = rounds.runs.reduce((n, r) => n + r.failures, 0);
  const rate = rates.reduce((a, b) => a + b, 0) / rates.length;
  const { tps, p99: tpcbP99 } = tpcb(rounds.pgbench);
  const all = [...tally.values()].flatMap((k) => k.committed);
  const committed = all.length;
  const p99 = quantile(all, 0.99);
  const traded = [...tally.values()].reduce((n, k) => n + k.traded, 0);
  const units = [...tally.values()].reduce((n, k) => n + k.units, 0);
  const hotAll = [...hotTally.values()].flatMap((k) => k.committed);
  const hotTraded = [...hotTally.values()].reduce((n, k) => n + k.traded, 0);
  const hotRatio = hot.rate / tps;
  const met = rate / tps >= GOAL.ratio && p99 < GOAL.p99 && hotRatio >= GOAL.hot;
  const lines = [
    ...reportHead('Market benchmark'),
    `| market orders with matching (mix below), random user of ${USERS} on ${TRADED.length} items, ${WORKERS} workers | ${fmt(rate)} | ${fmt(quantile(all, 0.5), 1)} ms | ${fmt(p99, 1)} ms | **${fmt(rate / tps, 2)}** |`,
    `| the same mix, all on one item (hot book), ${WORKERS} workers | ${fmt(hot.rate)} | ${fmt(quantile(hotAll, 0.5), 1)} ms | ${fmt(quantile(hotAll, 0.99), 1)} ms | ${fmt(hot.rate / tps, 2)} |`,
    pgbenchRow(SCALE, pgbench, rounds.pgbench),
    '',
    '| order (on every item) | committed | of which traded | units traded | refused | p50 latency | p99 latency |',
    '|---|---:|---:|---:|---|---:|---:|',
    ...KINDS.map((kind) => {
      const k = tally.get(kind)!;
      const refused = [...k.refused].map(([status, n]) => `${n} × ${status}`).join(', ') || '–';
      return `| ${kind} | ${k.committed.length} | ${k.traded} | ${k.units} | ${refused} | ${fmt(quantile(k.committed, 0.5), 1)} ms | ${fmt(quantile(k.committed, 0.99), 1)} ms |`;
    }),
    '',
    `Means over ${ROUNDS} alternating rounds of ${SECONDS} s (orders / pgbench per round: ${rates.map((r, i) => `${fmt(r)} / ${fmt(rounds.pgbench[i]!.tps)}`).join(', ')}); the hot book is one round.`,
    `Orders: ${committed} committed (${traded} of them traded: ${fmt((100 * traded) / committed, 0)}%), ${refusals} refused, ${failures} failed; ${units} units traded (${fmt(units / (ROUNDS * SECONDS))}/s); this process used ${fmt(nodeCpuMs / (committed + refusals + failures), 2)} ms of CPU per order (the app's code, drizzle and pg, on the same cores as PostgreSQL). Hot book: ${hotAll.length} committed (${hotTraded} traded), ${hot.refused} refused, ${hot.failures} failed.${
      failureReasons.size ? ` Failures: ${[...failureReasons].map(([r, n]) => `${n} × ${r}`).join('; ')}.` : ''
    } After the run (warm-up included): ${trades!.trades} trades of ${trades!.units} units, ${trades!.resting} offers resting.`,
    `Books after the run: ${books!.ok ? 'balanced' : 'NOT BALANCED'}: ${JSON.stringify(books)}`,
    `Goal (issue 28: at least ${GOAL.ratio} of TPC-B's rate, p99 under ${GOAL.p99} ms, the hot book at least ${GOAL.hot}): ${met ? 'met' : 'not met'} (ratio ${fmt(rate / tps, 2)}, p99 ${fmt(p99, 1)} ms, hot book ${fmt(hotRatio, 2)}).`,
    `Rerun: ${rerun}`,
  ];
  if (PROFILE) {
    const answered = committed + refusals + failures;
    const sorted = [...statements].sort((a, b) => b[1].ms - a[1].ms);
    const count = sorted.reduce((n, [, s]) => n + s.n, 0);
    const total = sorted.reduce((n, [, s]) => n + s.ms, 0);
    lines.push(
      '',
      `Statements (BENCH_PROFILE=1): ${count} for ${answered} orders, ${fmt(count / answered, 1)} per order; time from the call to the answer, lock waits included, ${fmt(total / answered, 2)} ms per order in all:`,
      '',
      '| # | statement | per order | mean ms | max ms | share of time |',
      '|---:|---|---:|---:|---:|---:|',
      ...sorted.map(
        ([text, s], i) =>
          `| ${i + 1} | \`${text.length > 90 ? `${text.slice(0, 90)}…` : text}\` | ${fmt(s.n / answered, 2)} | ${fmt(s.ms / s.n, 2)} | ${fmt(s.max, 1)} | ${fmt((100 * s.ms) / total, 1)}% |`,
      ),
      '',
      `Statements per order by kind: ${KINDS.map((kind) => {
        const k = tally.get(kind)!;
        const n = k.committed.length + [...k.refused.values()].reduce((a, b) => a + b, 0);
        return `${kind} ${fmt(statementsOf.get(kind)! / n, 1)}`;
      }).join(', ')} (refused orders included).`,
      '',
      'The statements in full:',
      ...sorted.map(([text], i) => `${i + 1}. ${text}`),
    );
  }
  console.log(lines.join('\n'));
  const figure = (figure: string, value: number, unit: string, goal: { atLeast?: number; below?: number }) =>
    reportFigure({ bench: 'bench:market', figure, value, unit, goal, rerun });
  figure(`market order (the mix), random user of ${USERS} on ${TRADED.length} items, ratio to TPC-B`, rate / tps, '×', {
    atLeast: GOAL.ratio,
  });
  figure('market order (the mix), p99 latency', p99, 'ms', { below: GOAL.p99 });
  reportFigure({
    bench: 'bench:market',
    figure: 'TPC-B p99, the same run',
    value: Number(tpcbP99.toFixed(1)),
    unit: 'ms',
    rerun,
  });
  figure('market order (the mix) all on one item (hot book), ratio to TPC-B', hotRatio, '×', { atLeast: GOAL.hot });
  if (!books!.ok) process.exitCode = 1;
}

await main();
