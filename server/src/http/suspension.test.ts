import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Suspended } from '../../../common/api/moderation';
import { sqlRows } from '../db/connection';
import { checkConservation } from '../ledger/conservation';
import { formData, makePicture } from '../modules/pictures/test-helpers';
import { giveItems, makeUser, signIn } from '../test/factories';
import { startTestApp, type TestApp, type TestClient } from '../test/harness';
import type { OpenApiDoc } from '../test/openapi-contract';

/*
 * The suspension guard (docs/product.md#suspension): every operation whose rule is 'member' (or a domain rule on
 * it), read from the OpenAPI document, answers a suspended user 403 {message, suspendedUntil} and changes nothing;
 * every other operation that changes something is listed below as one a suspended user may still make, so a new
 * route cannot be left out unnoticed. Reading, signing out and the end of the suspension work.
 */

/** The app's clock, moved by the tests: a suspension ends by itself when it passes. */
let clock = new Date('2026-11-26T10:00:00.000Z');
const HOUR = 3_600_000;

let t: TestApp;
let doc: OpenApiDoc & { paths: Record<string, Record<string, { 'x-authorization'?: string }>> };

type Op = { 'x-authorization'?: string; 'x-authorization-base'?: string; operationId?: string };

/** Calls that change something and stay open to a suspended user (docs/decisions.md, "Issue 26: suspension guard, blocks, blocked words"). */
const OPEN_TO_SUSPENDED = new Set([
  // Signing up, in and out, and verifying an email.
  'POST /api/auth/register',
  'POST /api/auth/login/basic',
  'POST /api/auth/login/google',
  'POST /api/auth/logout',
  'POST /api/auth/verify-email',
  // Settings: the cause, the lootbox seeds; reading notifications; blocking others.
  'POST /api/user/good-will',
  'PUT /api/lootbox/fairness',
  'POST /api/lootbox/fairness/rotate',
  'POST /api/user-notifications/read',
  'POST /api/user-notifications/read-all',
  'POST /api/user/blocks',
  'DELETE /api/user/blocks/{userId}',
  // Appealing a decision, which a suspension may be (docs/product.md#moderation).
  'POST /api/user/moderation/appeal',
  // A demo payment started before the suspension settles.
  'POST /api/payment/demo/{id}/pay',
  'POST /api/payment/demo/{id}/cancel',
  // A device's push subscription and switches: reading, not writing (docs/product.md#push).
  'POST /api/push/subscriptions',
  'DELETE /api/push/subscriptions',
  'PUT /api/push/preferences',
  // new-domain: open to suspended (a new domain's call a suspended user may still make goes above this line)
]);

/** The operations of the document, as "METHOD /path", with their operation. */
const operations = () =>
  Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      name: `${method.toUpperCase()} ${path}`,
      path,
      method,
      op: op as Op,
    })),
  );
const refusesSuspended = (op: Op) => op['x-authorization'] === 'member' || op['x-authorization-base'] === 'member';

beforeAll(async () => {
  t = await startTestApp({ now: () => clock });
  doc = (await t.client().get('/api/openapi.json')).json();
});
afterAll(() => t.close());

/** A user with money, letters and emojis, suspended until `until` (null: for good). */
async function suspendedUser(until: Date | null): Promise<{ id: number; client: TestClient }> {
  const user = await makeUser(t.ctx, { balance: 10_000 });
  for (const l of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') await giveItems(t.ctx, user.id, `COMMON_LETTER_${l}`, 1);
  await giveItems(t.ctx, user.id, 'UNCOMMON_EMOJI_FIRE', 1);
  await t.ctx.db.execute(
    sql`UPDATE users SET suspended_until = ${until}, suspended_for_good = ${until === null} WHERE id = ${user.id}`,
  );
  return { id: user.id, client: await signIn(t, user.id) };
}

/** Everything a refused call could have touched. */
const snapshot = async () =>
  sqlRows(
    t.ctx.db,
    sql<Record<string, unknown>>`SELECT (SELECT json_agg(a ORDER BY a.code) FROM ledger_accounts a) AS accounts,
       (SELECT count(*)::int FROM journal_entries) AS entries,
       (SELECT count(*)::int FROM comments) AS comments,
       (SELECT count(*)::int FROM comment_reactions) AS reactions,
       (SELECT count(*)::int FROM chat_messages) AS chat,
       (SELECT count(*)::int FROM pictures) AS pictures,
       (SELECT count(*)::int FROM reports) AS reports,
       (SELECT count(*)::int FROM market_offers) AS offers,
       (SELECT count(*)::int FROM payments) AS payments,
       (SELECT count(*)::int FROM charity_links) AS links,
       (SELECT json_agg(json_build_array(u.id, u.username, u.profile_image_id) ORDER BY u.id) FROM users u) AS users`,
  );

const expectSuspended = (res: { statusCode: number; body: string; json<T>(): T }, until: Date | null, name = '') => {
  expect(res.statusCode, `${name} ${res.body}`).toBe(403);
  expect(res.json<Suspended>(), name).toEqual({
    message:
      until === null
        ? 'Your account is suspended for good.'
        : `Your account is suspended until ${until.toISOString().slice(0, 10)} ${until.toISOString().slice(11, 16)} UTC.`,
    suspendedUntil: until === null ? null : until.toISOString(),
  });
};

describe('the suspension guard, from the route table', () => {
  it("every call that changes something is 'member', or listed as open to a suspended user", () => {
    const unsafe = operations().filter(({ method }) => !['get', 'head', 'options'].includes(method));
    const member = unsafe.filter(({ op }) => refusesSuspended(op)).map(({ name }) => name);
    const other = unsafe
      // An administrator's calls, and a provider's (signed by its credential, not a session), are no member's.
      .filter(({ op }) => !refusesSuspended(op) && op['x-authorization'] !== 'admin')
      .filter(({ op }) => !op['x-authorization']?.startsWith('signed-by:'))
      .map(({ name }) => name);
    expect(other.sort()).toEqual([...OPEN_TO_SUSPENDED].sort());
    // What the issue names: fund, upload, comment, react, pin, chat, keys, lootbox, market, charity link.
    for (const name of [
      'POST /api/payment/checkout-with-image-fund',
      'POST /api/payment/checkout-with-image-upload',
      'POST /api/picture/comment',
      'POST /api/picture/comment/reaction',
      'POST /api/picture/comment/pin',
      'POST /api/user/message',
      'POST /api/purchase/key',
      'POST /api/purchase/lootbox',
      'POST /api/open/lootbox',
      'POST /api/market/generic-sell-offer',
      'POST /api/market/generic-buy-offer',
      'POST /api/market/buy',
      'POST /api/market/buy-from-user',
      'POST /api/market/sell-to-user',
      'POST /api/user/graph-item',
      'POST /api/charity-link/send',
      'POST /api/auth/set-nickname',
      'PUT /api/user/profile',
      'POST /api/user/report-message',
    ]) {
      expect(member, name).toContain(name);
    }
  });

  it('documents the 403 with the end date on every member operation', () => {
    for (const { name, op } of operations().filter(({ op }) => refusesSuspended(op))) {
      const answer = (op as { responses: Record<string, { content?: Record<string, { schema: object }> }> }).responses[
        '403'
      ];
      const schema = answer?.content?.['application/json']?.schema as { properties?: Record<string, unknown> };
      expect(Object.keys(schema?.properties ?? {}), name).toEqual(['message', 'suspendedUntil']);
    }
  });

  it('refuses a suspended user every member operation with 403 {message, suspendedUntil}, changing nothing', async () => {
    const until = new Date(clock.getTime() + 7 * 24 * HOUR);
    const sam = await suspendedUser(until);
    const member = operations().filter(({ op }) => refusesSuspended(op));
    expect(member.length).toBeGreaterThan(15);
    const before = await snapshot();
    for (const { name, path, method } of member) {
      const url = path.replace(/\{(\w+)\}/g, (_, p: string) => (p === 'itemType' ? 'COMMON_LETTER_A' : '1'));
      const body = path.endsWith('image-upload') ? formData({ amount: '100' }) : { payload: {} };
      for (const headers of [{}, { host: 'green.example', origin: 'http://green.example' }]) {
        const res = await sam.client.request({
          method: method.toUpperCase() as 'POST',
          url,
          ...body,
          headers: { ...('headers' in body ? body.headers : {}), ...headers },
        });
        expectSuspended(res, until, name);
      }
    }
    expect(await snapshot()).toEqual(before);
    expect((await checkConservation(t.ctx.db)).ok).toBe(true);
  });

  it('refuses well-formed paid calls too, for good, and lets a suspended user read and sign out', async () => {
    const sam = await suspendedUser(null);
    const other = await makeUser(t.ctx, { balance: 100 });
    const picture = await makePicture(t.ctx, other.id, 100);
    const before = await snapshot();
    for (const [url, payload] of [
      ['/api/payment/checkout-with-image-fund', { imageId: picture, amount: 100 }],
      ['/api/picture/comment', { pictureId: picture, comment: 'HELLO' }],
      ['/api/user/message', { message: 'HELLO', sendAmount: 1_000 }],
      ['/api/purchase/key', { keyCount: 1 }],
      ['/api/payment/checkout', { amount: 500, url: '/' }],
      ['/api/user/report-message', { messageId: picture, type: 'PICTURE', reason: 'spam', description: 'x' }],
    ] as const) {
      expectSuspended(await sam.client.post(url, payload), null, url);
    }
    expect(await snapshot()).toEqual(before);

    // Reading works, and the profile says so for the banner.
    const profile = await sam.client.get('/api/user/profile');
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({ balance: 10_000, suspended: true, suspendedUntil: null });
    for (const url of [
      '/api/pictures',
      `/api/pictures/${picture}`,
      '/api/user-transactions',
      '/api/last-50-messages',
    ]) {
      expect((await sam.client.get(url)).statusCode, url).toBe(200);
    }
    expect((await sam.client.post('/api/auth/logout')).statusCode).toBe(200);
    expect((await sam.client.get('/api/user/profile')).statusCode).toBe(401);
    expect((await checkConservation(t.ctx.db)).ok).toBe(true);
  });

  it('ends by itself: past its end the same calls work again', async () => {
    const until = new Date(clock.getTime() + HOUR);
    const sam = await suspendedUser(until);
    const other = await makeUser(t.ctx, { balance: 100 });
    const picture = await makePicture(t.ctx, other.id, 100);
    const fund = { imageId: picture, amount: 100 };
    expectSuspended(await sam.client.post('/api/payment/checkout-with-image-fund', fund), until);
    expect((await sam.client.get('/api/user/profile')).json()).toMatchObject({
      suspended: true,
      suspendedUntil: until.toISOString(),
    });

    clock = new Date(until.getTime() + 1);
    const funded = await sam.client.post('/api/payment/checkout-with-image-fund', fund);
    expect(funded.statusCode, funded.body).toBe(200);
    expect(funded.json<{ balance: number }>().balance).toBe(9_900);
    const commented = await sam.client.post('/api/picture/comment', { pictureId: picture, comment: 'HELLO' });
    expect(commented.statusCode, commented.body).toBe(200);
    expect((await sam.client.get('/api/user/profile')).json()).toMatchObject({
      suspended: false,
      suspendedUntil: null,
    });
    expect((await checkConservation(t.ctx.db)).ok).toBe(true);
  });
});
