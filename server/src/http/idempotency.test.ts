import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlRows } from '../db/connection';
import { creditTopUp } from '../ledger/commands';
import { checkConservation } from '../ledger/conservation';
import { availableBalance } from '../ledger/ledger';
import { giveItems, makeUser, signIn } from '../test/factories';
import { startTestApp, type TestApp, type TestClient } from '../test/harness';
import { imageOf, jpegPart, makePicture, upload } from '../modules/pictures/test-helpers';

/*
 * Idempotency, Stripe's rule (docs/decisions.md): once a call has started, its answer is stored under its key and replayed,
 * whatever it was. A refusal replayed after the world changed (a top-up, a new price) still answers the refusal and
 * changes nothing; answers of calls that never started, and 5xx, leave the key free.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  expect(await checkConservation(t.ctx.db)).toMatchObject({ ok: true });
  await t.close();
});

interface Someone {
  id: number;
  client: TestClient;
}

async function someone(balance = 0, items: Record<string, number> = {}): Promise<Someone> {
  const user = await makeUser(t.ctx, { balance });
  for (const [itemType, n] of Object.entries(items)) await giveItems(t.ctx, user.id, itemType, n);
  return { id: user.id, client: await signIn(t, user.id) };
}

let topUps = 0;
const topUp = (u: Someone, cents: number) =>
  t.ctx.transact((work) => creditTopUp(work, u.id, cents, `idempotency-test-${++topUps}`));

/** What a call could have changed: every domain's rows and all users' money. */
async function world(): Promise<Record<string, number>> {
  const [r] = await sqlRows(
    t.ctx.db,
    sql<Record<string, number>>`SELECT (SELECT count(*) FROM journal_entries)::int AS entries,
               (SELECT count(*) FROM item_postings)::int AS "itemPostings",
               (SELECT count(*) FROM market_offers)::int AS offers,
               (SELECT count(*) FROM pictures)::int AS pictures,
               (SELECT count(*) FROM chat_messages)::int AS messages,
               (SELECT count(*) FROM comments)::int AS comments,
               (SELECT count(*) FROM charity_links)::int AS links,
               (SELECT coalesce(sum(balance), 0) FROM ledger_accounts WHERE guarded)::bigint AS "userMoney"`,
  );
  return r!;
}

type Call = (headers: Record<string, string>) => Promise<LightMyRequestResponse>;

interface Refused {
  call: Call;
  /** Makes the same call succeed if it ran again (top up, a new price); absent when nothing would. */
  fix?: () => Promise<unknown>;
}

const post =
  (u: Someone, url: string, body: Record<string, unknown>): Call =>
  (headers) =>
    u.client.post(url, body, headers);
const HELLO = { COMMON_LETTER_H: 1, COMMON_LETTER_E: 1, COMMON_LETTER_L: 2, COMMON_LETTER_O: 1 };

/** One refusal of every money route, with what would make it succeed afterwards. */
const cases: [string, number, () => Promise<Refused>][] = [
  [
    'funding short of money',
    402,
    async () => {
      const fan = await someone(100);
      const id = await makePicture(t.ctx, (await someone(1000)).id, 100);
      return {
        call: post(fan, '/api/payment/checkout-with-image-fund', { imageId: id, amount: 250, balance: 0 }),
        fix: () => topUp(fan, 1000),
      };
    },
  ],
  [
    'funding a picture that does not exist',
    404,
    async () => {
      const fan = await someone(1000);
      return { call: post(fan, '/api/payment/checkout-with-image-fund', { imageId: 987654, amount: 100, balance: 0 }) };
    },
  ],
  [
    'an upload short of money',
    402,
    async () => {
      const author = await someone(0);
      const part = jpegPart(await imageOf(300, 200));
      return { call: (headers) => upload(author.client, 500, part, headers), fix: () => topUp(author, 1000) };
    },
  ],
  [
    'a chat message short of money',
    402,
    async () => {
      const talker = await someone(0, HELLO);
      return {
        call: post(talker, '/api/user/message', { message: 'hello', sendAmount: 1000, balance: 0 }),
        fix: () => topUp(talker, 1000),
      };
    },
  ],
  [
    'a chat message below the price',
    409,
    async () => {
      const talker = await someone(1000, HELLO);
      return { call: post(talker, '/api/user/message', { message: 'hello', sendAmount: 0, balance: 0 }) };
    },
  ],
  [
    'keys short of money',
    402,
    async () => {
      const buyer = await someone(50);
      return { call: post(buyer, '/api/purchase/key', { keyCount: 2, balance: 0 }), fix: () => topUp(buyer, 1000) };
    },
  ],
  ['opening a lootbox without one', 400, async () => ({ call: post(await someone(0), '/api/open/lootbox', {}) })],
  [
    'a comment short of money',
    402,
    async () => {
      const writer = await someone(0, HELLO);
      const id = await makePicture(t.ctx, (await someone(1000)).id, 100);
      return {
        call: post(writer, '/api/picture/comment', { pictureId: id, comment: 'hello', balance: 0 }),
        fix: () => topUp(writer, 1000),
      };
    },
  ],
  [
    'a sell offer of more than is owned',
    400,
    async () => {
      const seller = await someone(0, { COMMON_LETTER_Q: 1 });
      return {
        call: post(seller, '/api/market/generic-sell-offer', { itemType: 'COMMON_LETTER_Q', price: 50, quantity: 3 }),
        fix: () => giveItems(t.ctx, seller.id, 'COMMON_LETTER_Q', 2),
      };
    },
  ],
  [
    'a buy offer short of money',
    402,
    async () => {
      const bidder = await someone(100);
      return {
        call: post(bidder, '/api/market/generic-buy-offer', {
          itemType: 'COMMON_LETTER_R',
          price: 130,
          quantity: 2,
          balance: 0,
        }),
        fix: () => topUp(bidder, 1000),
      };
    },
  ],
  [
    'a market buy after the price rose',
    409,
    async () => {
      const seller = await someone(0, { COMMON_LETTER_S: 2 });
      const offer = (price: number) =>
        seller.client.post(`/api/market/generic-sell-offer`, { itemType: 'COMMON_LETTER_S', price, quantity: 2 });
      expect((await offer(200)).statusCode).toBe(200);
      const buyer = await someone(1000);
      return {
        call: post(buyer, '/api/market/buy', { itemType: 'COMMON_LETTER_S', requestedPrice: 150, balance: 0 }),
        fix: () => offer(150),
      };
    },
  ],
  [
    'a market buy when nobody sells',
    404,
    async () => {
      const buyer = await someone(1000);
      return {
        call: post(buyer, '/api/market/buy', { itemType: 'COMMON_LETTER_T', requestedPrice: 150, balance: 0 }),
        fix: async () => {
          const seller = await someone(0, { COMMON_LETTER_T: 1 });
          await seller.client.post(`/api/market/generic-sell-offer`, {
            itemType: 'COMMON_LETTER_T',
            price: 100,
            quantity: 1,
          });
        },
      };
    },
  ],
  [
    "buying from a user whose offer's price changed",
    409,
    async () => {
      const seller = await someone(0, { COMMON_LETTER_U: 2 });
      const offer = (price: number) =>
        seller.client.post(`/api/market/generic-sell-offer`, { itemType: 'COMMON_LETTER_U', price, quantity: 2 });
      expect((await offer(90)).statusCode).toBe(200);
      const buyer = await someone(1000);
      return {
        call: post(buyer, '/api/market/buy-from-user', {
          itemType: 'COMMON_LETTER_U',
          price: 80,
          userId: seller.id,
          balance: 0,
        }),
        fix: () => offer(80),
      };
    },
  ],
  [
    'unlocking the graphs short of money',
    402,
    async () => {
      const viewer = await someone(10);
      return { call: post(viewer, '/api/user/graph-item', { balance: 0 }), fix: () => topUp(viewer, 1000) };
    },
  ],
  [
    'paying a demo checkout that was cancelled',
    409,
    async () => {
      const payer = await someone(0);
      const opened = await payer.client.post('/api/payment/checkout', { amount: 500, url: '/profile' });
      const id = new URL(opened.json<{ url: string }>().url).pathname.split('/').pop()!;
      expect((await payer.client.post(`/api/payment/demo/${id}/cancel`)).statusCode).toBe(200);
      return { call: (headers) => payer.client.post(`/api/payment/demo/${id}/pay`, {}, headers) };
    },
  ],
  [
    'approving a donation link that does not exist',
    404,
    async () => {
      const admin = await makeUser(t.ctx, { isAdmin: true });
      const client = await signIn(t, admin.id);
      const body = { charityLinkId: 987654, charityName: 'UNICEF', adminCategory: 'Health', amount: 500 };
      return {
        call: (headers) =>
          client.request({
            method: 'POST',
            url: '/api/admin/charity/approve',
            payload: { ...body, isPubliclyVisible: true },
            headers: { host: 'green.example', origin: 'http://green.example', ...headers },
          }),
      };
    },
  ],
];

describe('a refusal replayed under its Idempotency-Key', () => {
  let n = 0;
  it.each(cases)('%s: answers %i again, and changes nothing', async (_name, status, arrange) => {
    const refused = await arrange();
    const key = { 'idempotency-key': `refusal-${++n}` };
    const first = await refused.call(key);
    expect(first.statusCode, first.body).toBe(status);
    await refused.fix?.();
    const before = await world();
    const replay = await refused.call(key);
    expect(replay.statusCode).toBe(status);
    expect(replay.json()).toEqual(first.json());
    expect(await world()).toEqual(before);
    if (refused.fix) {
      // The world did change: the same call under a new key, a new attempt, goes through.
      const fresh = await refused.call({ 'idempotency-key': `refusal-${n}-again` });
      expect(fresh.statusCode, fresh.body).toBe(200);
    }
  });
});

describe('answers that leave the key free', () => {
  async function funding() {
    const fan = await someone(1000);
    const id = await makePicture(t.ctx, (await someone(1000)).id, 100);
    return { fan, body: { imageId: id, amount: 250, balance: 0 } };
  }
  const fund = (c: TestClient, body: object, key: string) =>
    c.post('/api/payment/checkout-with-image-fund', body as Record<string, unknown>, { 'idempotency-key': key });

  it('a schema 400 is not stored: the same key then runs the valid call', async () => {
    const { fan, body } = await funding();
    expect((await fund(fan.client, { ...body, amount: 'lots' }, 'schema-first')).statusCode).toBe(400);
    expect((await fund(fan.client, body, 'schema-first')).statusCode).toBe(200);
    expect(await availableBalance(t.ctx.db, fan.id)).toBe(750);
  });

  it('a 401 and a 403 (foreign Origin) are not stored', async () => {
    const { fan, body } = await funding();
    expect((await fund(t.client(), body, 'unsigned-first')).statusCode).toBe(401);
    const foreign = await fan.client.request({
      method: 'POST',
      url: '/api/payment/checkout-with-image-fund',
      payload: body,
      headers: { origin: 'http://evil.example', 'idempotency-key': 'unsigned-first' },
    });
    expect(foreign.statusCode).toBe(403);
    expect((await fund(fan.client, body, 'unsigned-first')).statusCode).toBe(200);
    expect(await availableBalance(t.ctx.db, fan.id)).toBe(750);
  });

  it('a 500 is not stored: the retry runs, once', async () => {
    const { fan, body } = await funding();
    // The database fails the first spend only (a sequence is not rolled back with the transaction).
    await t.ctx.db.execute(sql`CREATE SEQUENCE fail_once`);
    await t.ctx.db.execute(
      sql.raw(`CREATE FUNCTION fail_once() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
        IF nextval('fail_once') = 1 THEN RAISE EXCEPTION 'simulated failure'; END IF; RETURN NEW; END $$`),
    );
    await t.ctx.db.execute(
      sql`CREATE TRIGGER fail_once BEFORE INSERT ON picture_purchases FOR EACH ROW EXECUTE FUNCTION fail_once()`,
    );
    try {
      expect((await fund(fan.client, body, 'fails-first')).statusCode).toBe(500);
      expect(await availableBalance(t.ctx.db, fan.id)).toBe(1000);
      const retry = await fund(fan.client, body, 'fails-first');
      expect(retry.statusCode).toBe(200);
      expect((await fund(fan.client, body, 'fails-first')).json()).toEqual(retry.json());
      expect(await availableBalance(t.ctx.db, fan.id)).toBe(750);
    } finally {
      await t.ctx.db.execute(sql`DROP TRIGGER fail_once ON picture_purchases`);
      await t.ctx.db.execute(sql`DROP FUNCTION fail_once()`);
      await t.ctx.db.execute(sql`DROP SEQUENCE fail_once`);
    }
  });

  it('a stored refusal still names Idempotency-Key when the key comes with another body', async () => {
    const { fan, body } = await funding();
    expect((await fund(fan.client, { ...body, amount: 5000 }, 'refused-then-other')).statusCode).toBe(402);
    const other = await fund(fan.client, body, 'refused-then-other');
    expect(other.statusCode).toBe(400);
    expect(other.json()).toEqual([{ field: 'Idempotency-Key', errorText: expect.any(String) }]);
    expect(await availableBalance(t.ctx.db, fan.id)).toBe(1000);
  });
});
