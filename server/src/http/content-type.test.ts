import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlRows } from '../db/connection';
import { checkConservation } from '../ledger/conservation';
import { availableBalance } from '../ledger/ledger';
import { formData, imageOf } from '../modules/pictures/test-helpers';
import { makeUser, signIn } from '../test/factories';
import { startTestApp, type TestApp, type TestClient } from '../test/harness';
import { appRoutes, withParams } from '../test/routes';

/**
 * A call reads its body only in the type it declares (issue 22, item 20): JSON by default, multipart/form-data where
 * the route says so (the upload). Any other Content-Type is a 415 {message}, before anything runs: `text/plain`
 * carrying JSON opened a loot box.
 */

let t: TestApp;
let user: { id: number };
let browser: TestClient;
beforeAll(async () => {
  t = await startTestApp();
  user = await makeUser(t.ctx, { balance: 10_000 });
  browser = await signIn(t, user.id);
});
afterAll(() => t.close());

const TABLES = ['users', 'sessions', 'payments', 'pictures', 'journal_entries', 'idempotency_keys', 'market_offers'];
async function snapshot() {
  const counts: Record<string, number> = {};
  for (const table of TABLES) {
    const [row] = await sqlRows(t.ctx.db, sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.identifier(table)}`);
    counts[table] = Number(row!.n);
  }
  const { keyCount, lootBoxCount } = (await browser.get('/api/user/profile')).json<{
    keyCount: number;
    lootBoxCount: number;
  }>();
  return { counts, balance: await availableBalance(t.ctx.db, user.id), keyCount, lootBoxCount };
}

const MULTIPART_ROUTES = ['POST /api/payment/checkout-with-image-upload'];
const multipartBody = formData({ keyCount: '1', amount: '100' });

describe('a body of a type the route does not take', () => {
  const others = [
    ['text/plain', '{"keyCount":1}'],
    ['text/plain; charset=utf-8', '{}'],
    ['application/x-www-form-urlencoded', 'keyCount=1'],
    ['application/xml', '<a/>'],
    ['text/csv', 'a,b'],
    ['application/octet-stream', '{}'],
  ] as const;

  it('answers 415 {message} on every route that takes a JSON body, and changes nothing', async () => {
    const routes = appRoutes(t.app).filter(
      (r) => !['GET', 'HEAD'].includes(r.method) && !MULTIPART_ROUTES.includes(`${r.method} ${r.url}`),
    );
    expect(routes.length).toBeGreaterThan(30);
    const before = await snapshot();
    for (const { method, url } of routes) {
      const probes: (readonly [string, string | Buffer])[] = [
        ...others,
        [multipartBody.headers['content-type']!, multipartBody.payload],
      ];
      for (const [type, payload] of probes) {
        const res = await browser.request({
          method: method as 'POST',
          url: withParams(url, '1'),
          headers: { 'content-type': type },
          payload,
        });
        expect(res.statusCode, `${method} ${url} with ${type}: ${res.body}`).toBe(415);
        expect(res.json(), `${method} ${url} with ${type}`).toEqual({
          message: expect.stringContaining('application/json'),
        });
      }
    }
    expect(await snapshot()).toEqual(before);
    expect((await checkConservation(t.ctx.db)).ok).toBe(true);
  });

  it('text/plain carrying JSON no longer opens a loot box', async () => {
    expect((await browser.post('/api/purchase/key', { keyCount: 1 })).statusCode).toBe(200);
    expect((await browser.post('/api/purchase/lootbox', {})).statusCode).toBe(200);
    const before = await snapshot();
    const res = await browser.request({
      method: 'POST',
      url: '/api/open/lootbox',
      headers: { 'content-type': 'text/plain' },
      payload: '{}',
    });
    expect(res.statusCode).toBe(415);
    expect(await snapshot()).toEqual(before);
    expect((await browser.post('/api/open/lootbox', {})).statusCode).toBe(200);
  });

  it('answers 415 on the upload for anything but multipart/form-data', async () => {
    for (const [type, payload] of [...others, ['application/json', '{"amount":"100"}']] as const) {
      const res = await browser.request({
        method: 'POST',
        url: '/api/payment/checkout-with-image-upload',
        headers: { 'content-type': type },
        payload,
      });
      expect(res.statusCode, `${type}: ${res.body}`).toBe(415);
      expect(res.json()).toEqual({ message: expect.stringContaining('multipart/form-data') });
    }
  });
});

describe('bodies of the declared type', () => {
  it('are taken as before: JSON in any spelling, an empty body with no type, multipart on the upload', async () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON']) {
      const res = await browser.request({
        method: 'POST',
        url: '/api/purchase/key',
        headers: { 'content-type': type },
        payload: '{"keyCount":1}',
      });
      expect(res.statusCode, type).toBe(200);
    }
    expect((await browser.request({ method: 'POST', url: '/api/open/lootbox/skip' })).statusCode).toBe(200);
    const form = formData(
      { amount: '100' },
      { filename: 'a.jpg', contentType: 'image/jpeg', data: await imageOf(300, 300) },
    );
    const res = await browser.request({
      method: 'POST',
      url: '/api/payment/checkout-with-image-upload',
      ...form,
    });
    expect(res.statusCode, res.body).toBe(200);
  });
});
