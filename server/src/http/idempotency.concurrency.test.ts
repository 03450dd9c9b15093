import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { ITEMS } from '../../../common/items';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkConservation } from '../ledger/conservation';
import { availableBalance } from '../ledger/ledger';
import { missingRealServices, realPostgresUrl } from '../test/databases';
import { giveItems, makeUser, signIn } from '../test/factories';
import { PATIENT_DATABASE, startTestApp, type TestApp } from '../test/harness';
import { makePicture } from '../modules/pictures/test-helpers';

/*
 * Concurrent replays of one Idempotency-Key on PostgreSQL with its pool (docs/decisions.md, "Idempotency, Stripe's rule"): replays wait for the first
 * call and answer what it answered, a refusal included, even when the world changed while they waited (the
 * sequential cases are idempotency.test.ts); a 5xx frees
 * the key for one of them.
 */
describe.skipIf(missingRealServices({ postgres: true }))('concurrent replays of one key (PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ postgresUrl: realPostgresUrl, config: PATIENT_DATABASE });
  });
  afterAll(async () => {
    expect(await checkConservation(t.ctx.db)).toMatchObject({ ok: true });
    await t.close();
  });

  async function funding(balance: number) {
    const fan = await makeUser(t.ctx, { balance });
    const client = await signIn(t, fan.id);
    const imageId = await makePicture(t.ctx, (await makeUser(t.ctx, { balance: 1000 })).id, 100);
    // inject() sends when its answer is first awaited: Promise.resolve sends it now.
    const fund = (key: string) =>
      Promise.resolve(
        client.post(
          '/api/payment/checkout-with-image-fund',
          { imageId, amount: 250, balance: 0 },
          { 'idempotency-key': key },
        ),
      );
    return { fan, fund };
  }

  it('replays waiting on a refused call answer its 409, though the price fell before they ran', async () => {
    const item = 'COMMON_LETTER_P';
    const seller = await makeUser(t.ctx);
    await giveItems(t.ctx, seller.id, item, 2);
    const sellerClient = await signIn(t, seller.id);
    const offer = (price: number) =>
      Promise.resolve(sellerClient.post('/api/market/generic-sell-offer', { itemType: item, price, quantity: 2 }));
    expect((await offer(200)).statusCode).toBe(200);
    const buyer = await makeUser(t.ctx, { balance: 1000 });
    const buyerClient = await signIn(t, buyer.id);
    const buy = () =>
      Promise.resolve(
        buyerClient.post(
          '/api/market/buy',
          { itemType: item, requestedPrice: 150, balance: 0 },
          { 'idempotency-key': 'held-refusal' },
        ),
      );
    // Another connection holds the item's book (the lock market_order takes first): the first buy claims its key and
    // waits on the book, its replays wait on the key, the seller's lower price waits on the book behind the first buy.
    const holder = new pg.Client({ connectionString: t.config.databaseUrl });
    await holder.connect();
    let lower: ReturnType<typeof offer> | undefined;
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock(7100, $1)', [ITEMS.findIndex((i) => i.itemType === item)]);
      const first = buy();
      await sleep(200);
      const replays = Array.from({ length: 4 }, buy);
      await sleep(200);
      lower = offer(150);
      await sleep(200);
      await holder.query('COMMIT');
      const answers = await Promise.all([first, ...replays]);
      expect(answers.map((a) => a.statusCode)).toEqual([409, 409, 409, 409, 409]);
      for (const a of answers) expect(a.json()).toEqual(answers[0]!.json());
    } finally {
      await holder.end();
      expect((await lower)?.statusCode).toBe(200);
    }
    expect(await availableBalance(t.ctx.db, buyer.id)).toBe(1000);
  });

  it('a call that failed with a 500 leaves the key to one replay: charged once, every other replay its answer', async () => {
    const { fan, fund } = await funding(1000);
    await t.ctx.db.execute(sql`CREATE SEQUENCE fail_first`);
    await t.ctx.db.execute(
      sql.raw(`CREATE FUNCTION fail_first() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
        PERFORM pg_sleep(0.2);
        IF nextval('fail_first') = 1 THEN RAISE EXCEPTION 'simulated failure'; END IF; RETURN NEW; END $$`),
    );
    await t.ctx.db.execute(
      sql`CREATE TRIGGER fail_first BEFORE INSERT ON picture_purchases FOR EACH ROW EXECUTE FUNCTION fail_first()`,
    );
    try {
      const answers = await Promise.all(Array.from({ length: 6 }, () => fund('fails-once')));
      const codes = answers.map((a) => a.statusCode).sort();
      expect(codes).toEqual([200, 200, 200, 200, 200, 500]);
      const bodies = answers.filter((a) => a.statusCode === 200).map((a) => a.json());
      for (const b of bodies) expect(b).toEqual(bodies[0]);
      expect(await availableBalance(t.ctx.db, fan.id)).toBe(750);
    } finally {
      await t.ctx.db.execute(sql`DROP TRIGGER fail_first ON picture_purchases`);
      await t.ctx.db.execute(sql`DROP FUNCTION fail_first()`);
      await t.ctx.db.execute(sql`DROP SEQUENCE fail_first`);
    }
  });

  it('many keys of one user, each replayed at once, refused or not: each answer is its key first answer', async () => {
    const { fan, fund } = await funding(1000);
    // 1000 cents pay for four fundings of 250: of ten keys, four go through and six are refused; every replay of a
    // key gives what that key gave first.
    const keys = Array.from({ length: 10 }, (_, i) => `many-${i}`);
    const answers = await Promise.all(keys.flatMap((k) => [fund(k), fund(k), fund(k)]));
    const byKey = new Map<string, { status: number; body: string }[]>();
    answers.forEach((a, i) => {
      const k = keys[Math.floor(i / 3)]!;
      byKey.set(k, [...(byKey.get(k) ?? []), { status: a.statusCode, body: a.body }]);
    });
    for (const [, list] of byKey) for (const a of list) expect(a).toEqual(list[0]);
    const firsts = [...byKey.values()].map((l) => l[0]!.status);
    expect(firsts.filter((s) => s === 200)).toHaveLength(4);
    expect(firsts.filter((s) => s === 402)).toHaveLength(6);
    expect(await availableBalance(t.ctx.db, fan.id)).toBe(0);
  });
});
