import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe } from 'vitest';
import { sqlRows } from '../../db/connection';
import { giveItems, makeUser, signIn } from '../../test/factories';
import { startTestApp, type TestApp } from '../../test/harness';
import { itRefusesStrangers } from '../../test/policy-table';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const ITEM = 'COMMON_LETTER_Q';

/** Alice paid for the graphs and trades Q; Bob, who did not pay, asks for Q's trades. */
async function graphsAliceUnlocked() {
  const alice = await makeUser(t.ctx, { balance: 1_000 });
  await (await signIn(t, alice.id)).post('/api/user/graph-item', { balance: 1_000 });
  const bob = await makeUser(t.ctx, { balance: 500 });
  const stranger = await signIn(t, bob.id);
  const snapshot = () =>
    sqlRows(
      t.ctx.db,
      sql`SELECT (SELECT count(*) FROM graph_unlocks)::int AS unlocks,
                 (SELECT balance FROM ledger_accounts WHERE code = ${`user:${bob.id}:available`}) AS balance`,
    );
  return { ids: { itemType: ITEM }, stranger, snapshot };
}

/** Carol offers Q both ways; Carol herself tries to take her own offers. */
async function carolsOwnOffers() {
  const carol = await makeUser(t.ctx, { balance: 1_000 });
  await giveItems(t.ctx, carol.id, ITEM, 3);
  const client = await signIn(t, carol.id);
  await client.post('/api/market/generic-sell-offer', { itemType: ITEM, quantity: 1, price: 50 });
  await client.post('/api/market/generic-buy-offer', { itemType: ITEM, quantity: 1, price: 40, balance: 0 });
  const snapshot = () =>
    sqlRows(t.ctx.db, sql`SELECT side, price, quantity FROM market_offers WHERE user_id = ${carol.id} ORDER BY side`);
  return { ids: { userId: carol.id }, stranger: client, snapshot };
}

describe('market policy: graphs one has not paid for', () => {
  itRefusesStrangers(() => t, graphsAliceUnlocked, [
    {
      route: 'GET /api/trade-data/{itemType}',
      request: ({ itemType }: { itemType: string }) => ({ method: 'GET', url: `/api/trade-data/${itemType}` }),
      status: 403,
    },
  ]);
});

describe('market policy: taking one own offer', () => {
  // Not a stranger but the owner: their own offer is not theirs to take (400, as docs/product.md#market says).
  itRefusesStrangers(() => t, carolsOwnOffers, [
    {
      route: 'POST /api/market/buy-from-user',
      request: ({ userId }: { userId: number }) => ({
        method: 'POST',
        url: '/api/market/buy-from-user',
        payload: { itemType: ITEM, price: 50, userId, balance: 0 },
      }),
      status: 400,
    },
    {
      route: 'POST /api/market/sell-to-user',
      request: ({ userId }: { userId: number }) => ({
        method: 'POST',
        url: '/api/market/sell-to-user',
        payload: { itemType: ITEM, price: 40, userId },
      }),
      status: 400,
    },
  ]);
});
