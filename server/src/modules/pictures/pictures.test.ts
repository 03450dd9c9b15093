import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FundMessage } from '../../../../common/live';
import { sqlRows, type Columns } from '../../db/connection';
import type { notificationEvents } from '../notifications/notifications.tables';
import { checkConservation } from '../../ledger/conservation';
import { availableBalance } from '../../ledger/ledger';
import type { LiveEvent } from '../../live/bus';
import { makeUser, signIn } from '../../test/factories';
import { startTestApp, type TestApp } from '../../test/harness';
import type { Picture } from '../../../../common/api/pictures';
import { makePicture } from './test-helpers';

let clock = Date.parse('2026-03-01T12:00:00Z');
const minutes = (n: number) => (clock += n * 60_000);

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ now: () => new Date(clock) });
});
afterAll(() => t.close());

const fund = (client: ReturnType<TestApp['client']>, body: object, headers?: Record<string, string>) =>
  client.post('/api/payment/checkout-with-image-fund', body as Record<string, unknown>, headers);

async function list(query: string): Promise<Picture[]> {
  const res = await t.client().get(`/api/pictures?${query}`);
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function eventsOf(userId: number, topic: string) {
  return sqlRows(
    t.ctx.db,
    sql<
      Columns<typeof notificationEvents, 'actor_id' | 'picture_id' | 'amount'>
    >`SELECT actor_id, picture_id, amount FROM notification_events WHERE user_id = ${userId} AND topic = ${topic}
        ORDER BY id`,
  );
}

describe('GET /api/pictures', () => {
  it('ranks the top wall by total amount, then newest first', async () => {
    const a = await makeUser(t.ctx, { balance: 100_000 });
    const old = await makePicture(t.ctx, a.id, 300);
    minutes(1);
    const big = await makePicture(t.ctx, a.id, 900_00);
    minutes(1);
    const newer = await makePicture(t.ctx, a.id, 300);
    const ids = (await list('sort=top&limit=100')).map((p) => p.id);
    expect(ids.indexOf(big)).toBeLessThan(ids.indexOf(newer));
    expect(ids.indexOf(newer)).toBeLessThan(ids.indexOf(old));
    expect((await list('limit=100')).map((p) => p.id)).toEqual(ids);
  });

  it('pages with offset and limit, 20 by default', async () => {
    const a = await makeUser(t.ctx, { balance: 100_000 });
    for (let i = 0; i < 25; i++) await makePicture(t.ctx, a.id, 100 + i);
    const all = await list('sort=top&limit=100');
    expect(await list('sort=top')).toHaveLength(20);
    expect((await list('sort=top&offset=3&limit=4')).map((p) => p.id)).toEqual(all.slice(3, 7).map((p) => p.id));
  });

  it.each([
    'limit=0',
    'limit=101',
    'limit=ten',
    'offset=-1',
    'offset=1.5',
    'sort=newest',
    'sort=profile',
    'sort=profile&authorId=abc',
    'limit=1e400',
    'offset=99999999',
  ])('answers 400 with a list of field errors for %s', async (query) => {
    const res = await t.client().get(`/api/pictures?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(expect.arrayContaining([{ field: expect.any(String), errorText: expect.any(String) }]));
  });

  it("lists a profile by the author's last payment", async () => {
    const author = await makeUser(t.ctx, { balance: 10_000 });
    const fan = await makeUser(t.ctx, { balance: 10_000 });
    const first = await makePicture(t.ctx, author.id, 100);
    minutes(1);
    const second = await makePicture(t.ctx, author.id, 100);
    const profile = () => list(`sort=profile&authorId=${author.id}`).then((ps) => ps.map((p) => p.id));
    expect(await profile()).toEqual([second, first]);

    minutes(1);
    expect((await fund(await signIn(t, fan.id), { imageId: first, amount: 5000, balance: 0 })).statusCode).toBe(200);
    expect(await profile()).toEqual([second, first]);

    minutes(1);
    expect((await fund(await signIn(t, author.id), { imageId: first, amount: 100 })).statusCode).toBe(200);
    expect(await profile()).toEqual([first, second]);
    expect(await list(`sort=profile&authorId=${fan.id}`)).toEqual([]);
  });
});

describe('a wall page written by the database', () => {
  it('is byte for byte the cards the detail route serializes, variants, faces, folded purchases and odd titles too', async () => {
    const a = await makeUser(t.ctx, { balance: 100_000 });
    const face = await makePicture(t.ctx, a.id, 150);
    const plain = await makePicture(t.ctx, a.id, 120);
    minutes(3);
    const rich = await makePicture(t.ctx, a.id, 130);
    const folded = await makePicture(t.ctx, a.id, 110);
    // What the upload path would have stored; microseconds (written by SQL, not by a JS Date) are cut off as
    // toISOString cuts them, and a title holds every character JSON escapes.
    await t.ctx.db
      .execute(sql`UPDATE pictures SET variant_widths = '{360,720,1080}', placeholder = 'YTkGJwaRhWUIt4lbgnhZl3ath2BUBGYA',
        title = ${'a "quoted"\\ title\n\t\u0001 ü ✓ </script>'}, created_at = created_at + interval '987 microseconds'
      WHERE id = ${rich}`);
    await t.ctx.db.execute(sql`UPDATE pictures SET variant_widths = '{360}' WHERE id = ${face}`);
    await t.ctx.db.execute(sql`UPDATE users SET profile_image_id = ${face} WHERE id = ${a.id}`);
    // Several purchases of odd amounts and ages: the score is a sum whose order shows in its last bits.
    for (const [amount, age] of [
      [137, 1],
      [2999, 4],
      [73, 11],
      [1234, 29],
      [501, 61],
    ] as const) {
      await t.ctx.db.execute(sql`INSERT INTO picture_purchases (picture_id, user_id, amount, paid_at)
        VALUES (${rich}, ${a.id}, ${amount}, ${new Date(clock - age * 60_013).toISOString()}::timestamptz)`);
    }
    await t.ctx.db.execute(sql`UPDATE picture_purchases SET paid_at = paid_at + interval '999 microseconds'
      WHERE picture_id = ${rich}`);
    await t.ctx.db.execute(sql`UPDATE pictures SET earlier_amount = 4200, earlier_score = 1234.5678901234567,
        earlier_at = ${new Date(clock - 3 * 86_400_000).toISOString()}::timestamptz + interval '123 microseconds',
        purchase_count = 26 WHERE id = ${folded}`);
    minutes(7);
    const res = await t.client().get(`/api/pictures?sort=profile&authorId=${a.id}&limit=100`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const ids = (res.json() as Picture[]).map((p) => p.id);
    expect(ids.sort()).toEqual([face, plain, rich, folded].sort());
    const cards = await Promise.all(
      (res.json() as Picture[]).map(async (p) => (await t.client().get(`/api/pictures/${p.id}`)).body),
    );
    expect(res.body).toBe(`[${cards.join(',')}]`);
    const byId = new Map((res.json() as Picture[]).map((p) => [p.id, p]));
    expect(byId.get(rich)!.sources).not.toBeNull();
    expect(byId.get(plain)!.authorProfileUrl).toMatch(/-360\.webp$/);
    expect(byId.get(folded)!.earlierPurchases).toMatchObject({ count: 25, amount: 4200, score: 1234.5678901234567 });
    expect(await list('sort=top&offset=100000&limit=5')).toEqual([]);
  });
});

describe('GET /api/pictures/{id}', () => {
  it('answers the picture with the spec fields', async () => {
    const a = await makeUser(t.ctx, { balance: 1000 });
    const id = await makePicture(t.ctx, a.id, 250);
    const res = await t.client().get(`/api/pictures/${id}`);
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(
      [
        'id',
        'authorId',
        'authorName',
        'authorProfileImgId',
        'authorProfileUrl',
        'url',
        'title',
        'height',
        'width',
        'sources',
        'placeholder',
        'commentCount',
        'lastAuthorPayment',
        'purchases',
        'earlierPurchases',
        'purchaseCount',
        'totalAmount',
        'createdOn',
        'trendingScore',
      ].sort(),
    );
  });

  it('answers 404 for an unknown picture and 400 for an id that is not a number', async () => {
    expect((await t.client().get('/api/pictures/999999999')).statusCode).toBe(404);
    const bad = await t.client().get('/api/pictures/abc');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()[0]).toMatchObject({ field: expect.any(String), errorText: expect.any(String) });
  });
});

describe('POST /api/payment/checkout-with-image-fund', () => {
  it('adds to the fund, charges the funder, tells the author and sends the live fund message', async () => {
    const author = await makeUser(t.ctx, { balance: 1000 });
    const fan = await makeUser(t.ctx, { balance: 1000 });
    const id = await makePicture(t.ctx, author.id, 100);
    const seen: LiveEvent[] = [];
    const off = t.ctx.bus.subscribe((e) => e.ch === 'picture' && seen.push(e));
    const res = await fund(await signIn(t, fan.id), { imageId: id, amount: 300, balance: 999_999 });
    off();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id, totalAmount: 400, purchases: [{ amount: 100 }, { amount: 300 }] });
    expect(await availableBalance(t.ctx.db, fan.id)).toBe(700);
    const message: FundMessage = {
      pictureId: id,
      authorFund: false,
      fundAmount: 300,
      fundOn: new Date(clock).toISOString(),
    };
    expect(seen).toEqual([{ ch: 'picture', t: 'fund', m: message }]);
    expect(await eventsOf(author.id, 'IMAGE_LIKE')).toEqual([{ actor_id: fan.id, picture_id: id, amount: 300 }]);
  });

  it('marks the live message as the author’s own fund and tells nobody', async () => {
    const author = await makeUser(t.ctx, { balance: 1000 });
    const id = await makePicture(t.ctx, author.id, 100);
    const seen: LiveEvent[] = [];
    const off = t.ctx.bus.subscribe((e) => e.ch === 'picture' && seen.push(e));
    await fund(await signIn(t, author.id), { imageId: id, amount: 200 });
    off();
    expect((seen[0]!.m as FundMessage).authorFund).toBe(true);
    expect(await eventsOf(author.id, 'IMAGE_LIKE')).toEqual([]);
  });

  it('tells the authors of the pictures it passed in the top list their new place', async () => {
    const [first, second, third, fan] = await Promise.all(
      [0, 1, 2, 3].map(() => makeUser(t.ctx, { balance: 100_000_000 })),
    );
    // Far above everything else in this file, so the places are known.
    const a = await makePicture(t.ctx, first!.id, 3_000_000);
    const b = await makePicture(t.ctx, second!.id, 2_000_000);
    const c = await makePicture(t.ctx, third!.id, 1_000_000);
    const top = (await list('sort=top&limit=3')).map((p) => p.id);
    expect(top).toEqual([a, b, c]);

    await fund(await signIn(t, fan!.id), { imageId: c, amount: 1_500_000 });
    expect((await list('sort=top&limit=3')).map((p) => p.id)).toEqual([a, c, b]);
    expect(await eventsOf(second!.id, 'IMAGE_OVERTOOK')).toEqual([{ actor_id: fan!.id, picture_id: b, amount: 2 }]);
    expect(await eventsOf(first!.id, 'IMAGE_OVERTOOK')).toEqual([]);
  });

  it('refuses a signed-out funding', async () => {
    const a = await makeUser(t.ctx, { balance: 1000 });
    const id = await makePicture(t.ctx, a.id, 100);
    expect((await fund(t.client(), { imageId: id, amount: 100 })).statusCode).toBe(401);
  });

  it.each([
    ['zero', 0],
    ['negative', -100],
    ['not a number', 'ten'],
    ['a fraction of a cent', 1.5],
    ['more than six digits of dollars', 100_000_000],
    ['huge', 1e300],
    ['huge, as text', '1e400'],
    ['missing', undefined],
  ])('refuses an amount that is %s', async (_what, amount) => {
    const a = await makeUser(t.ctx, { balance: 1000 });
    const id = await makePicture(t.ctx, a.id, 100);
    const res = await fund(await signIn(t, a.id), { imageId: id, amount });
    expect(res.statusCode).toBe(400);
    expect(res.json()[0]).toMatchObject({ field: expect.any(String), errorText: expect.any(String) });
    expect(await availableBalance(t.ctx.db, a.id)).toBe(900);
  });

  it('answers 404 for a picture that does not exist and charges nothing', async () => {
    const a = await makeUser(t.ctx, { balance: 1000 });
    const res = await fund(await signIn(t, a.id), { imageId: 987_654_321, amount: 100 });
    expect(res.statusCode).toBe(404);
    expect(await availableBalance(t.ctx.db, a.id)).toBe(1000);
  });

  it('answers 402 with what is missing when the balance is one cent short', async () => {
    const author = await makeUser(t.ctx, { balance: 1000 });
    const fan = await makeUser(t.ctx, { balance: 299 });
    const id = await makePicture(t.ctx, author.id, 100);
    const res = await fund(await signIn(t, fan.id), { imageId: id, amount: 300 });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ missing: 1 });
    expect(await availableBalance(t.ctx.db, fan.id)).toBe(299);
    expect((await t.client().get(`/api/pictures/${id}`)).json().totalAmount).toBe(100);
  });

  it('charges once when a funding is replayed with the same Idempotency-Key', async () => {
    const author = await makeUser(t.ctx, { balance: 1000 });
    const fan = await makeUser(t.ctx, { balance: 1000 });
    const id = await makePicture(t.ctx, author.id, 100);
    const client = await signIn(t, fan.id);
    const key = { 'idempotency-key': 'fund-once' };
    const answers = await Promise.all([1, 2, 3].map(() => fund(client, { imageId: id, amount: 250 }, key)));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(answers[1]!.json()).toEqual(answers[0]!.json());
    expect(await availableBalance(t.ctx.db, fan.id)).toBe(750);
    expect((await t.client().get(`/api/pictures/${id}`)).json().totalAmount).toBe(350);
  });

  it('lets exactly 10 of 30 concurrent fundings of 100 cents through a balance of 1000', async () => {
    const author = await makeUser(t.ctx, { balance: 1000 });
    const fan = await makeUser(t.ctx, { balance: 1000 });
    const id = await makePicture(t.ctx, author.id, 100);
    const client = await signIn(t, fan.id);
    const answers = await Promise.all(Array.from({ length: 30 }, () => fund(client, { imageId: id, amount: 100 })));
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(10);
    expect(codes.filter((c) => c === 402)).toHaveLength(20);
    expect(await availableBalance(t.ctx.db, fan.id)).toBe(0);
    const picture = (await t.client().get(`/api/pictures/${id}`)).json();
    expect(picture.totalAmount).toBe(1100);
    expect(picture.purchaseCount).toBe(11);
    expect((await checkConservation(t.ctx.db)).ok).toBe(true);
  });
});

describe('PUT and PATCH /api/user/profile?imageId=', () => {
  it("sets one's own picture as profile picture and shows it on every picture card", async () => {
    const a = await makeUser(t.ctx, { balance: 1000 });
    const id = await makePicture(t.ctx, a.id, 100);
    const other = await makePicture(t.ctx, a.id, 100);
    const client = await signIn(t, a.id);
    for (const method of ['PUT', 'PATCH'] as const) {
      const res = await client.request({ method, url: `/api/user/profile?imageId=${id}` });
      expect(res.statusCode).toBe(200);
      const { url } = (await client.get(`/api/pictures/${id}`)).json();
      expect(res.json()).toEqual({ profileImageUrl: url });
    }
    expect((await client.get(`/api/pictures/${other}`)).json()).toMatchObject({ authorProfileImgId: id });
    const { url } = (await client.get(`/api/pictures/${id}`)).json();
    expect((await client.get('/api/user/profile')).json()).toMatchObject({ profileImageUrl: url });
    expect((await t.client().get(`/api/user/user-info/${a.id}`)).json()).toMatchObject({ profileImageUrl: url });
  });

  it("refuses another user's picture with 403, an unknown one with 404 and a signed-out call with 401", async () => {
    const a = await makeUser(t.ctx, { balance: 1000 });
    const b = await makeUser(t.ctx, { balance: 1000 });
    const theirs = await makePicture(t.ctx, b.id, 100);
    const client = await signIn(t, a.id);
    expect((await client.request({ method: 'PUT', url: `/api/user/profile?imageId=${theirs}` })).statusCode).toBe(403);
    expect((await client.request({ method: 'PATCH', url: '/api/user/profile?imageId=99999999' })).statusCode).toBe(404);
    expect((await client.request({ method: 'PUT', url: '/api/user/profile?imageId=abc' })).statusCode).toBe(400);
    expect((await t.client().request({ method: 'PUT', url: `/api/user/profile?imageId=${theirs}` })).statusCode).toBe(
      401,
    );
  });
});

describe('the books', () => {
  it('balance after everything above', async () => {
    expect((await checkConservation(t.ctx.db)).ok).toBe(true);
  });
});
