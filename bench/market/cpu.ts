/**
 * `npx tsx bench/market/cpu.ts`: the database's CPU per market order (docs/performance.md, "Market"), a figure that
 * other work on the machine barely moves, unlike rates. One connection sends the calls of `market_order` one after
 * another, the mix of bench/market/ceiling.ts (sell and buy offers of 1–5 units within 10% of each item's mid on
 * the benchmark's 46 items, a tenth of cancels, random users), with `synchronous_commit = off` in that session so
 * that no call waits for a flush; the server process's own CPU time (user and system, from /proc: PostgreSQL must
 * run on this machine) is read before and after. Its WAL writer, checkpointer and other processes are not counted.
 *
 *   BENCH_DATABASE_URL (else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test)
 *   BENCH_USERS=1000  BENCH_ORDERS=4000 (measured, after as many to fill the books)  BENCH_ROUNDS=3
 */
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { ITEMS, itemName } from '../../common/items';
import { openDatabase, sqlRows } from '../../server/src/db/connection';
import type { WorkDeps } from '../../server/src/db/unit-of-work';
import { ensureSystemAccounts } from '../../server/src/ledger/commands';
import { checkConservation } from '../../server/src/ledger/conservation';
import { MemoryBus } from '../../server/src/live/bus';
import { freshPostgresDatabase } from '../../server/src/test/databases';
import { fmt } from '../ledger/stats';
import { benchDatabaseUrl, setting } from '../pgbench';
import { TRADED, makeTraders, midPrice } from './traders';

const USERS = setting('BENCH_USERS', 1000);
const ORDERS = setting('BENCH_ORDERS', 4000);
const ROUNDS = setting('BENCH_ROUNDS', 3);
const log = (line: string) => process.stderr.write(`${line}\n`);
const MID = TRADED.map(midPrice);
const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;
const int = (lo: number, hi: number) => lo + Math.floor(Math.random() * (hi - lo + 1));

/** A process's CPU time so far (user + system), in ms; /proc counts clock ticks of 10 ms. */
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

const fresh = await freshPostgresDatabase(benchDatabaseUrl);
const database = await openDatabase({ databaseUrl: fresh.url, poolSize: 8 });
const deps: WorkDeps = { db: database.db, bus: new MemoryBus() };
const client = new pg.Client({ connectionString: fresh.url });
try {
  await ensureSystemAccounts(database.db);
  log(`creating ${USERS} users…`);
  const users = await makeTraders(database, deps, {
    count: USERS,
    prefix: 'cpu',
    money: 1_000_000,
    units: 100,
    items: TRADED,
    workers: 8,
  });
  await client.connect();
  await client.query('SET synchronous_commit = off');
  const pid = Number((await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid);
  const order = async () => {
    const i = int(0, TRADED.length - 1);
    const item = TRADED[i]!.itemType;
    const r = int(1, 20);
    const cancel = r > 18;
    const price = cancel ? 0 : Math.max(1, Math.floor((MID[i]! * int(900, 1100)) / 1000));
    await client.query(
      `SELECT market_order('offer', ${quote(item)}, ${ITEMS.findIndex((x) => x.itemType === item)}, ` +
        `'${r % 2 === 0 ? 'SELL' : 'BUY'}', ${users[int(0, users.length - 1)]}, ${price}, ${cancel ? 0 : int(1, 5)}, ` +
        `NULL, 150, now(), ${quote(itemName(item))}, 3600)`,
    );
  };
  log(`filling the books (${ORDERS} orders; the server process is ${pid})…`);
  for (let n = 0; n < ORDERS; n++) await order();
  const perOrder: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const [cpu0, t0] = [cpuMs(pid), performance.now()];
    for (let n = 0; n < ORDERS; n++) await order();
    const [cpu, wall] = [cpuMs(pid) - cpu0, performance.now() - t0];
    perOrder.push((1000 * cpu) / ORDERS);
    log(
      `  round ${round + 1}: ${fmt((1000 * cpu) / ORDERS)} µs of the server's CPU an order (${fmt(wall / ORDERS, 2)} ms apart)`,
    );
  }
  const [offers] = await sqlRows<{ sells: number; buys: number }>(
    database.db,
    sql`SELECT count(*) FILTER (WHERE side = 'SELL')::int AS sells, count(*) FILTER (WHERE side = 'BUY')::int AS buys
          FROM market_offers`,
  );
  const books = await checkConservation(database.db);
  perOrder.sort((a, b) => a - b);
  console.log(
    `market_order one at a time, ${ROUNDS} × ${ORDERS} orders: median ${fmt(perOrder[Math.floor(ROUNDS / 2)]!)} µs ` +
      `of the server's CPU an order (rounds ${perOrder.map((x) => fmt(x)).join(', ')}); ${offers!.sells} sell and ` +
      `${offers!.buys} buy offers resting at the end; books ${books.ok ? 'balanced' : `NOT BALANCED ${JSON.stringify(books)}`}`,
  );
} finally {
  await client.end().catch(() => undefined);
  await database.close();
  await fresh.drop();
}
