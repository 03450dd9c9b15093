/**
 * `npx tsx bench/market/ceiling.ts`: the database's own ceiling for market orders, with no Node in the loop
 * (docs/performance.md, "Market"). pgbench itself sends the calls of `market_order` (each a transaction of its own,
 * as the app's one call is), the mix of sell and buy offers of 1–5 units within 10% of each item's mid on the
 * benchmark's 46 items and a tenth of cancels, by random users of BENCH_USERS, against pgbench's TPC-B on the same
 * server, rounds alternating as bench:market does. The ratio it prints is what the market's rate could reach if the
 * app cost nothing.
 *
 *   BENCH_DATABASE_URL (else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test)
 *   BENCH_USERS=1000  BENCH_WORKERS=16  BENCH_SECONDS=10 (per round)  BENCH_ROUNDS=3  BENCH_PGBENCH_SCALE=16
 *   BENCH_HOT=1: every order on one item (the hot book)
 */
import { ITEMS, itemName } from '../../common/items';
import { checkConservation } from '../../server/src/ledger/conservation';
import { fmt } from '../ledger/stats';
import { benchSettings, openBench, pgbenchScript } from '../pgbench';
import { TRADED, makeTraders, midPrice } from './traders';

const { USERS, WORKERS, SECONDS, ROUNDS, SCALE } = benchSettings();
const HOT = process.env.BENCH_HOT === '1';
const log = (line: string) => process.stderr.write(`${line}\n`);
const BOOKS = TRADED.filter((item) => !HOT || item.itemType === 'COMMON_LETTER_E');
const MID = BOOKS.map(midPrice);
const book = (itemType: string) => ITEMS.findIndex((i) => i.itemType === itemType);
const text = (xs: string[]) => `ARRAY[${xs.map((x) => `'${x}'`).join(',')}]`;

const { database, url, deps, pgbench, close } = await openBench({
  workers: WORKERS,
  seconds: SECONDS,
  scale: SCALE,
  log,
});
try {
  log(`creating ${USERS} users…`);
  const users = await makeTraders(database, deps, {
    count: USERS,
    prefix: 'ceiling',
    money: 1_000_000,
    units: 100,
    items: BOOKS,
    workers: WORKERS,
  });
  const n = BOOKS.length;
  const script = `\\set u random(${Math.min(...users)}, ${Math.max(...users)})
\\set i random(1, ${n})
\\set q random(1, 5)
\\set r random(1, 20)
\\set f random(900, 1100)
SELECT market_order('offer', (${text(BOOKS.map((t) => t.itemType))})[:i], (ARRAY[${BOOKS.map((t) => book(t.itemType)).join(',')}])[:i], CASE WHEN :r % 2 = 0 THEN 'SELL' ELSE 'BUY' END, :u, CASE WHEN :r > 18 THEN 0 ELSE greatest(1, (ARRAY[${MID.join(',')}])[:i] * :f / 1000) END, CASE WHEN :r > 18 THEN 0 ELSE :q END, NULL, 150, now(), (${text(BOOKS.map((t) => itemName(t.itemType)))})[:i], 3600);
`;
  log('warming up for 3 s (filling the books)…');
  await pgbenchScript(url, script, { workers: WORKERS, seconds: 3 });
  const orders: number[] = [];
  const tpcb: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    orders.push((await pgbenchScript(url, script, { workers: WORKERS, seconds: SECONDS })).tps);
    tpcb.push((await pgbench.run()).tps);
    log(`  round ${r + 1}: ${fmt(orders.at(-1)!)} orders/s (pgbench as the client), TPC-B ${fmt(tpcb.at(-1)!)}`);
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const books = await checkConservation(database.db);
  console.log(
    `market_order from pgbench${HOT ? ' (hot book)' : ''}, ${WORKERS} clients, ${ROUNDS} × ${SECONDS} s: ` +
      `${fmt(mean(orders))} orders/s against TPC-B ${fmt(mean(tpcb))}: ratio **${fmt(mean(orders) / mean(tpcb), 2)}**; ` +
      `books ${books.ok ? 'balanced' : `NOT BALANCED ${JSON.stringify(books)}`}`,
  );
} finally {
  await close();
}
