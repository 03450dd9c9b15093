/**
 * `npx tsx bench/market/explain.ts`: where the time of one market order goes inside the database's `market_order`
 * (docs/performance.md, "Market"). One connection, one order at a time (nothing waits on a lock), the bench's mix on
 * a few items after a warm-up that fills their books; PostgreSQL's auto_explain times every statement the function
 * runs (nested statements, ANALYZE) and hands it to this client as a LOG message. Prints the statements by their
 * share of the function's time, and the mean time of the call itself and of its round trip.
 *
 *   BENCH_DATABASE_URL (else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test)
 *   BENCH_USERS=200  BENCH_ORDERS=600 (profiled)  BENCH_ITEMS=4
 */
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { ITEMS_BY_TIER } from '../../common/items';
import { openDatabase, sqlRows } from '../../server/src/db/connection';
import { oneCaller } from '../../server/src/db/one-call';
import { transact, type WorkDeps } from '../../server/src/db/unit-of-work';
import { HttpError } from '../../server/src/http/errors';
import { creditTopUp, ensureSystemAccounts, mintLoot, openUserAccounts } from '../../server/src/ledger/commands';
import { checkConservation } from '../../server/src/ledger/conservation';
import { InsufficientFunds } from '../../server/src/ledger/ledger';
import { marketBuy, placeBuyOffer, placeSellOffer } from '../../server/src/modules/market/market.commands';
import { MemoryBus } from '../../server/src/live/bus';
import { freshPostgresDatabase } from '../../server/src/test/databases';
import { benchDatabaseUrl, setting } from '../pgbench';
import { fmt } from '../ledger/stats';

const USERS = setting('BENCH_USERS', 200);
const ORDERS = setting('BENCH_ORDERS', 600);
const ITEMS = ITEMS_BY_TIER.LETTER.slice(0, setting('BENCH_ITEMS', 4)).map((i) => i.itemType);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
const near = (mid: number) => Math.max(1, Math.round(mid * (0.9 + 0.2 * Math.random())));

async function main(): Promise<void> {
  const fresh = await freshPostgresDatabase(benchDatabaseUrl);
  const database = await openDatabase({ databaseUrl: fresh.url, poolSize: 1 });
  const deps: WorkDeps = { db: database.db, bus: new MemoryBus() };
  try {
    await ensureSystemAccounts(database.db);
    const users = (
      await sqlRows<{ id: number }>(
        database.db,
        sql`INSERT INTO users (username, badge)
            SELECT 'explain_' || i, 'EXPLAIN' || i FROM generate_series(1, ${USERS}) i RETURNING id`,
      )
    ).map((r) => Number(r.id));
    const stock = ITEMS.flatMap((item) => Array.from({ length: 50 }, () => item));
    for (const id of users) {
      await openUserAccounts(database.db, id);
      await transact(deps, async (w) => {
        await creditTopUp(w, id, 1_000_000, `explain-${id}`);
        await mintLoot(w, { userId: id, items: stock, openingId: 0 });
      });
    }
    const caller = oneCaller(deps);
    const c = () => ({ now: new Date(), feeBps: 150 });
    const order = async () => {
      const [userId, item] = [pick(users), pick(ITEMS)];
      const roll = Math.random();
      try {
        if (roll < 0.35) await placeSellOffer(caller, c(), { userId, itemType: item, price: near(100), quantity: 3 });
        else if (roll < 0.7)
          await placeBuyOffer(caller, c(), { userId, itemType: item, price: near(100), quantity: 3 });
        else if (roll < 0.8) await marketBuy(caller, c(), { userId, itemType: item, requestedPrice: 105 });
        else if (roll < 0.9) await placeSellOffer(caller, c(), { userId, itemType: item, price: 0, quantity: 0 });
        else await placeBuyOffer(caller, c(), { userId, itemType: item, price: 0, quantity: 0 });
      } catch (err) {
        if (!(err instanceof InsufficientFunds) && !(err instanceof HttpError)) throw err;
      }
    };
    for (let n = 0; n < 2 * ORDERS; n++) await order();

    // The pool's one connection: auto_explain on, its LOG messages to this client.
    const pool = (database.db as unknown as { $client: pg.Pool }).$client;
    const client = await pool.connect();
    const nested = new Map<string, { n: number; ms: number }>();
    let calls = 0;
    let callMs = 0;
    client.on('notice', (msg: { message?: string }) => {
      const m = /^duration: ([\d.]+) ms\s+plan:\s*Query Text: ([\s\S]*?)\n(?:[A-Z]|\s{2,}\S)/.exec(msg.message ?? '');
      if (!m) return;
      const text = m[2]!.replace(/\s+/g, ' ').trim();
      if (text.startsWith('BEGIN;') || text.startsWith('SELECT market_order(')) {
        calls++;
        callMs += Number(m[1]);
        return;
      }
      const s = nested.get(text) ?? { n: 0, ms: 0 };
      nested.set(text, { n: s.n + 1, ms: s.ms + Number(m[1]) });
    });
    await client.query(`LOAD 'auto_explain'; SET auto_explain.log_min_duration = 0;
      SET auto_explain.log_nested_statements = on; SET auto_explain.log_analyze = on;
      SET auto_explain.log_timing = off; SET client_min_messages = log`);
    client.release();
    const t0 = performance.now();
    for (let n = 0; n < ORDERS; n++) await order();
    const wall = performance.now() - t0;
    const conn = await pool.connect();
    await conn.query('SET client_min_messages = notice; SET auto_explain.log_min_duration = -1');
    conn.release();

    const total = [...nested.values()].reduce((a, s) => a + s.ms, 0);
    const rows = [...nested].sort((a, b) => b[1].ms - a[1].ms);
    console.log(
      `${ORDERS} orders one at a time on ${ITEMS.length} items (${USERS} users): ${fmt(wall / ORDERS, 2)} ms an order ` +
        `from the app (auto_explain on), the call ${fmt(callMs / Math.max(calls, 1), 2)} ms in the server, its ` +
        `statements ${fmt(total / ORDERS, 2)} ms; by share:`,
    );
    console.log('| # | statement | per order | mean ms | share |\n|---:|---|---:|---:|---:|');
    rows
      .slice(0, 25)
      .forEach(([text, s], i) =>
        console.log(
          `| ${i + 1} | \`${text.length > 110 ? `${text.slice(0, 110)}…` : text}\` | ${fmt(s.n / ORDERS, 2)} | ` +
            `${fmt(s.ms / s.n, 3)} | ${fmt((100 * s.ms) / total, 1)}% |`,
        ),
      );
    const books = await checkConservation(database.db);
    console.log(`Books: ${books.ok ? 'balanced' : `NOT BALANCED ${JSON.stringify(books)}`}`);
  } finally {
    await database.close();
    await fresh.drop();
  }
}

await main();
