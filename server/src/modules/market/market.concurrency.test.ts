import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderAnswer } from '../../../../common/api/market';
import { sqlRows } from '../../db/connection';
import { checkConservation } from '../../ledger/conservation';
import { availableBalance } from '../../ledger/ledger';
import { missingRealServices, realPostgresUrl } from '../../test/databases';
import { giveItems, makeUser, signIn } from '../../test/factories';
import { PATIENT_DATABASE, startTestApp, type TestApp, type TestClient } from '../../test/harness';
import { mulberry32 } from '../../test/random';

/*
 * The market under real concurrency, on PostgreSQL with its pool: orders on one book run one at a time under the
 * book's lock, orders on different books run together, and whatever the interleaving the books balance.
 */
describe.skipIf(missingRealServices({ postgres: true }))('the market under concurrent orders (PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ postgresUrl: realPostgresUrl, config: { ...PATIENT_DATABASE, marketFeeBps: 150 } });
  });
  afterAll(() => t.close());

  async function trader(balance: number, items: Record<string, number> = {}) {
    const user = await makeUser(t.ctx, { balance });
    for (const [itemType, n] of Object.entries(items)) await giveItems(t.ctx, user.id, itemType, n);
    return { id: user.id, client: await signIn(t, user.id) };
  }

  it('50 parallel market buys against 5 units on sale: exactly 5 fill, the rest find nobody selling', async () => {
    const item = 'RARE_EMOJI_ROCKET';
    const seller = await trader(0, { [item]: 5 });
    expect(
      (await seller.client.post('/api/market/generic-sell-offer', { itemType: item, quantity: 5, price: 100 }))
        .statusCode,
    ).toBe(200);
    const buyers = await Promise.all(Array.from({ length: 50 }, () => trader(1_000)));
    const answers = await Promise.all(
      buyers.map((b) => b.client.post('/api/market/buy', { itemType: item, requestedPrice: 100, balance: 1_000 })),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(5);
    expect(codes.filter((c) => c !== 200).every((c) => c === 404)).toBe(true);
    // A fee of 1.5% comes off each sale: floor(100 × 150 / 10000) = 1.
    expect(await availableBalance(t.ctx.db, seller.id)).toBe(5 * 99);
    const spent = await Promise.all(buyers.map((b) => availableBalance(t.ctx.db, b.id)));
    expect(spent.filter((b) => b === 900)).toHaveLength(5);
    expect(await checkConservation(t.ctx.db)).toMatchObject({ ok: true });
  });

  it('thousands of mixed orders from many users on a few items: no error, no crossed book, books balance to the cent', async () => {
    const seed = Number(process.env.MARKET_FUZZ_SEED ?? Date.now() % 1_000_000);
    console.log(`market fuzz seed ${seed} (rerun with MARKET_FUZZ_SEED=${seed})`);
    const random = mulberry32(seed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));

    const items = ['UNCOMMON_EMOJI_FIRE', 'UNCOMMON_EMOJI_STAR', 'EPIC_EMOJI_CROWN'];
    const users = await Promise.all(
      Array.from({ length: 30 }, () => trader(50_000, Object.fromEntries(items.map((i) => [i, 20])))),
    );
    const moneyAndFees = async () =>
      (
        await sqlRows(
          t.ctx.db,
          sql<{ total: number }>`SELECT (SELECT sum(balance) FROM ledger_accounts WHERE guarded)
                   + (SELECT coalesce(sum(amount), 0) FROM postings WHERE account_code = 'platform:market-fees')
                   AS total`,
        )
      )[0]!.total;
    const before = await moneyAndFees();

    const order = (u: { client: TestClient; id: number }) => {
      const itemType = pick(items);
      const price = int(80, 120);
      switch (pick(['sell', 'sell', 'bid', 'bid', 'buy', 'from', 'to', 'cancel'] as const)) {
        case 'sell':
          return u.client.post('/api/market/generic-sell-offer', { itemType, quantity: int(1, 6), price });
        case 'bid':
          return u.client.post('/api/market/generic-buy-offer', { itemType, quantity: int(1, 6), price, balance: 0 });
        case 'buy':
          return u.client.post('/api/market/buy', { itemType, requestedPrice: price, balance: 0 });
        case 'from':
          return u.client.post('/api/market/buy-from-user', { itemType, price, userId: pick(users).id, balance: 0 });
        case 'to':
          return u.client.post('/api/market/sell-to-user', { itemType, price, userId: pick(users).id });
        case 'cancel':
          return u.client.post(`/api/market/generic-${pick(['sell', 'buy'])}-offer`, {
            itemType,
            quantity: 0,
            price: 0,
          });
      }
    };

    const total = 3_000;
    const statuses = new Map<number, number>();
    let filled = 0;
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < total) {
          next++;
          const res = await order(pick(users));
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          if (res.statusCode === 200) filled += res.json<OrderAnswer>().filled;
          else expect([400, 402, 404, 409], res.body).toContain(res.statusCode);
        }
      }),
    );
    console.log(
      `market fuzz: ${total} orders, ${filled} units traded, answers ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    expect(filled).toBeGreaterThan(100);

    const report = await checkConservation(t.ctx.db);
    expect(report).toMatchObject({
      ok: true,
      crossedBooks: 0,
      escrowMismatches: 0,
      heldMismatches: 0,
      driftedAccounts: 0,
      driftedInventories: 0,
    });
    // Money only moved between users and the fees: users' money plus fees is what it was.
    expect(Number(await moneyAndFees())).toBe(Number(before));
    const [units] = await sqlRows(
      t.ctx.db,
      sql<{ n: number }>`SELECT sum(quantity)::int AS n FROM inventories WHERE item_type IN (${sql.join(
        items.map((i) => sql`${i}`),
        sql`, `,
      )})`,
    );
    expect(units!.n).toBe(30 * 20 * items.length);
  });
});
