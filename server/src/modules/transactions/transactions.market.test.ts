import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransactionRow, TransactionSummary } from '../../../../common/api/transactions';
import { TRANSACTION_TYPES } from '../../../../common/api/transactions';
import { sqlRows, type Columns } from '../../db/connection';
import type { marketOffers, trades } from '../market/market.tables';
import { checkConservation } from '../../ledger/conservation';
import { availableBalance } from '../../ledger/ledger';
import { giveItems, makeUser, signIn } from '../../test/factories';
import { startTestApp, type TestApp, type TestClient } from '../../test/harness';
import { mulberry32 } from '../../test/random';

/*
 * The statement reconciles with the money (docs/decisions.md, "The statement reconciles with the money"): many
 * traders place, replace and cancel offers and take each other's at random, through the API; then, for each trader,
 * the types' sums add up to balance + held, `held` is what their open buy offers hold, ITEM_BUY and ITEM_SELL rows
 * are their fills and nothing else, and the CSV says the same. Seeded: a failing run prints its seed.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const ITEMS = ['COMMON_LETTER_A', 'COMMON_LETTER_B'] as const;

interface Trader {
  id: number;
  client: TestClient;
}

const rowsOf = async (u: Trader, type: string) => {
  const list = (await u.client.get(`/api/user-transactions/${type}?limit=200`)).json<TransactionRow[]>();
  expect(list.length, 'one page holds them all').toBeLessThan(200);
  return list;
};

/** What a trader's fills were, per journal entry: paid for units bought (negative), proceeds of units sold. */
async function fillsOf(userId: number): Promise<{ bought: Map<number, number>; sold: Map<number, number> }> {
  const found = await sqlRows(
    t.ctx.db,
    sql<Columns<typeof trades, 'entry_id'> & { bought: number; sold: number }>`SELECT entry_id,
          coalesce(-sum(price * quantity) FILTER (WHERE buyer_id = ${userId}), 0)::bigint AS bought,
          coalesce(sum(price * quantity - fee) FILTER (WHERE seller_id = ${userId}), 0)::bigint AS sold
        FROM trades WHERE buyer_id = ${userId} OR seller_id = ${userId} GROUP BY entry_id`,
  );
  const bought = new Map<number, number>();
  const sold = new Map<number, number>();
  for (const r of found) {
    if (Number(r.bought) !== 0) bought.set(Number(r.entry_id), Number(r.bought));
    if (Number(r.sold) !== 0) sold.set(Number(r.entry_id), Number(r.sold));
  }
  return { bought, sold };
}

async function heldByOffers(userId: number): Promise<number> {
  const [r] = await sqlRows(
    t.ctx.db,
    sql<{ held: number }>`SELECT coalesce(sum(price * quantity), 0)::bigint AS held FROM market_offers
        WHERE user_id = ${userId} AND side = 'BUY'`,
  );
  return Number(r!.held);
}

/** Every check of one trader's statement against the ledger, the book and the trades. */
async function checkStatement(u: Trader, label: string): Promise<void> {
  const { held, ...sums } = (await u.client.get('/api/user-transactions')).json<TransactionSummary>();
  const balance = await availableBalance(t.ctx.db, u.id);
  expect(held, `${label}: held`).toBe(await heldByOffers(u.id));
  expect(held, label).toBeGreaterThanOrEqual(0);
  expect(
    Object.values(sums).reduce((a, b) => a + b, 0),
    `${label}: the types add up to balance + held`,
  ).toBe(balance + held);

  const { bought, sold } = await fillsOf(u.id);
  const buys = await rowsOf(u, 'ITEM_BUY');
  const sells = await rowsOf(u, 'ITEM_SELL');
  expect(new Map(buys.map((r) => [r.id, r.payAmount])), `${label}: ITEM_BUY rows are the fills bought`).toEqual(bought);
  expect(new Map(sells.map((r) => [r.id, r.payAmount])), `${label}: ITEM_SELL rows are the fills sold`).toEqual(sold);
  expect(sums.ITEM_BUY).toBe([...bought.values()].reduce((a, b) => a + b, 0));
  expect(sums.ITEM_SELL).toBe([...sold.values()].reduce((a, b) => a + b, 0));

  // The download says the same: its market rows are these rows, and all of it adds up to balance + held.
  const csv = (await u.client.get('/api/user-transactions.csv')).body.trimEnd().split('\r\n').slice(1);
  const cells = csv.map((line) => line.split(','));
  const csvMarket = cells
    .filter(([, type]) => type === 'ITEM_BUY' || type === 'ITEM_SELL')
    .map(([time, type, amount]) => `${time} ${type} ${amount}`)
    .sort();
  const apiMarket = [
    ...buys.map((r) => `${r.time} ITEM_BUY ${r.payAmount}`),
    ...sells.map((r) => `${r.time} ITEM_SELL ${r.payAmount}`),
  ].sort();
  expect(csvMarket, `${label}: the CSV's market rows`).toEqual(apiMarket);
  expect(
    cells.reduce((n, [, , amount]) => n + Number(amount), 0),
    `${label}: the CSV's total`,
  ).toBe(balance + held);
  for (const [, type] of cells) expect(TRANSACTION_TYPES).toContain(type);
}

describe('the statement of traders on a random market', () => {
  it('reconciles, per trader, with balance + held, and shows fills only', async () => {
    const seed = Number(process.env.STATEMENT_MARKET_SEED ?? Date.now() % 1_000_000);
    console.log(`statement market seed ${seed} (rerun with STATEMENT_MARKET_SEED=${seed})`);
    const random = mulberry32(seed);
    const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
    const pick = <T>(xs: readonly T[]): T => xs[int(0, xs.length - 1)]!;

    const traders: Trader[] = [];
    for (let i = 0; i < 8; i++) {
      const user = await makeUser(t.ctx, { balance: int(3, 50) * 100 });
      for (const item of ITEMS) {
        const n = int(0, 6);
        if (n > 0) await giveItems(t.ctx, user.id, item, n);
      }
      traders.push({ id: user.id, client: await signIn(t, user.id) });
    }

    const statuses = new Map<string, number>();
    for (let step = 0; step < 160; step++) {
      const u = pick(traders);
      const itemType = pick(ITEMS);
      const price = int(40, 160);
      const action = pick(['buyOffer', 'buyOffer', 'sellOffer', 'sellOffer', 'cancel', 'market', 'take'] as const);
      let res;
      if (action === 'buyOffer' || action === 'sellOffer') {
        const path = action === 'buyOffer' ? 'generic-buy-offer' : 'generic-sell-offer';
        res = await u.client.post(`/api/market/${path}`, { itemType, price, quantity: int(1, 4), balance: 0 });
      } else if (action === 'cancel') {
        const path = random() < 0.5 ? 'generic-buy-offer' : 'generic-sell-offer';
        res = await u.client.post(`/api/market/${path}`, { itemType, price: 0, quantity: 0, balance: 0 });
      } else if (action === 'market') {
        res = await u.client.post('/api/market/buy', { itemType, requestedPrice: price, balance: 0 });
      } else {
        const offers = await sqlRows(
          t.ctx.db,
          sql<
            Columns<typeof marketOffers, 'user_id' | 'side' | 'price'>
          >`SELECT user_id, side, price FROM market_offers WHERE item_type = ${itemType} AND user_id <> ${u.id}`,
        );
        if (offers.length === 0) continue;
        const o = pick(offers);
        const path = o.side === 'SELL' ? 'buy-from-user' : 'sell-to-user';
        res = await u.client.post(`/api/market/${path}`, { itemType, price: o.price, userId: o.user_id, balance: 0 });
      }
      const kind = `${action} ${res.statusCode}`;
      statuses.set(kind, (statuses.get(kind) ?? 0) + 1);
      expect([200, 400, 402, 404, 409], `${kind}: ${res.body}`).toContain(res.statusCode);
      if (step % 40 === 39) {
        for (const [i, trader] of traders.entries()) await checkStatement(trader, `seed ${seed}, step ${step}, #${i}`);
      }
    }
    console.log(`statement market: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
    // The run did what it is for: fills, resting bids, replacements and cancels.
    const [trades] = await sqlRows(t.ctx.db, sql<{ n: number }>`SELECT count(*)::int AS n FROM trades`);
    expect(trades!.n).toBeGreaterThan(5);
    expect(statuses.get('buyOffer 200') ?? 0).toBeGreaterThan(5);
    expect(statuses.get('cancel 200') ?? 0).toBeGreaterThan(3);
    for (const [i, trader] of traders.entries()) await checkStatement(trader, `seed ${seed}, end, #${i}`);
    expect(await checkConservation(t.ctx.db)).toMatchObject({ ok: true });
  });
});
