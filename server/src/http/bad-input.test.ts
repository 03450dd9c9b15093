import net from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlRows } from '../db/connection';
import { checkConservation } from '../ledger/conservation';
import { availableBalance } from '../ledger/ledger';
import { imageOf, formData } from '../modules/pictures/test-helpers';
import { makeUser, signIn } from '../test/factories';
import { startTestApp, type TestApp, type TestClient } from '../test/harness';

/**
 * Input no route can use gets a 4xx in the contract's form and changes nothing (docs/product.md#errors): 400 as a
 * list of {field, errorText}, 404 as {message}. Every route of the app is probed, read from the app itself, so a
 * route added later is covered without editing this file.
 */

let t: TestApp;
let user: { id: number; username: string };
let browser: TestClient;
const routes: { method: string; url: string }[] = [];

beforeAll(async () => {
  t = await startTestApp();
  user = await makeUser(t.ctx, { balance: 1000 });
  browser = await signIn(t, user.id);
  routes.push(...routesOf(t.app.printRoutes({ commonPrefix: false })));
});

/** Every route in Fastify's printed route tree: each line's indent says which line's path it continues. */
function routesOf(tree: string): { method: string; url: string }[] {
  const found: { method: string; url: string }[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^((?:[│ ] {3})*)[├└]── (\S+)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    const url = (stack[depth - 1] ?? '') + m[2]!;
    stack.push(url);
    for (const method of m[3]?.split(', ') ?? []) if (method !== 'HEAD') found.push({ method, url });
  }
  return found;
}
afterAll(() => t.close());

const TABLES = [
  'users',
  'sessions',
  'payments',
  'pictures',
  'picture_purchases',
  'journal_entries',
  'idempotency_keys',
];

/** What a bad request must not change: the row counts of every table that matters, the balance, the books. */
async function snapshot() {
  const counts: Record<string, number> = {};
  for (const table of TABLES) {
    const [row] = await sqlRows(t.ctx.db, sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.identifier(table)}`);
    counts[table] = Number(row!.n);
  }
  return { counts, balance: await availableBalance(t.ctx.db, user.id) };
}

const hasBody = (method: string) => !['GET', 'DELETE'].includes(method);
/** The upload reads multipart only (any other type is a 415, content-type.test.ts); every other route reads JSON. */
const MULTIPART = '/api/payment/checkout-with-image-upload';
const emptyBody = (method: string, url: string) =>
  !hasBody(method) ? {} : url === MULTIPART ? formData({}) : { payload: {} };
const withParams = (url: string, value: string) => url.replace(/:\w+/g, value).replace(/\*$/, value);

function expectFieldList(res: { statusCode: number; body: string }, what: string) {
  expect(res.statusCode, `${what}: ${res.body}`).toBe(400);
  const body = JSON.parse(res.body) as unknown;
  expect(Array.isArray(body), `${what}: ${res.body}`).toBe(true);
  for (const e of body as object[]) expect(Object.keys(e).sort(), what).toEqual(['errorText', 'field']);
}

describe('NUL characters', () => {
  it('finds the routes to probe', () => {
    expect(routes.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining([
        'GET /api/payment/:id',
        'POST /api/auth/register',
        'POST /api/payment/checkout-with-image-upload',
        'GET /demo-checkout/:id',
      ]),
    );
  });

  it('in a path parameter answer 400 with the field list on every route that takes one', async () => {
    const before = await snapshot();
    for (const { method, url } of routes.filter((r) => /[:*]/.test(r.url))) {
      for (const value of ['%00', 'a%00b', '1%00']) {
        const res = await browser.request({
          method: method as 'GET',
          url: withParams(url, value),
          payload: hasBody(method) ? {} : undefined,
        });
        expectFieldList(res, `${method} ${url} with ${value}`);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('in the query string answer 400 with the field list on every route', async () => {
    const before = await snapshot();
    for (const { method, url } of routes) {
      const res = await browser.request({
        method: method as 'GET',
        url: `${withParams(url, '1')}?sort=top%00&x=%00`,
        ...emptyBody(method, url),
      });
      expectFieldList(res, `${method} ${url}`);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('in any string or key of a JSON body answer 400 with the field list on every route that takes a body', async () => {
    // Every field any route reads, each valid but for a NUL somewhere.
    const bodies = [
      { username: `nul_${process.pid}`, password: 'secret123', email: 'a\u0000@example.test', currentPath: '/' },
      { username: 'a\u0000b', password: 'secret123' },
      { nickname: 'nick\u0000', currentPath: '/' },
      { amount: 100, url: '/a\u0000b' },
      { imageId: 1, amount: 1, balance: { note: '\u0000' } },
      { userId: '1', secret: 'x\u0000' },
      { 'key\u0000': 1 },
      ['\u0000'],
    ];
    const before = await snapshot();
    for (const { method, url } of routes.filter((r) => hasBody(r.method) && r.url !== MULTIPART)) {
      for (const payload of bodies) {
        const res = await browser.request({ method: method as 'POST', url: withParams(url, '1'), payload });
        expectFieldList(res, `${method} ${url} with ${JSON.stringify(payload)}`);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('in a multipart field of an upload answer 400 on that field and store no picture', async () => {
    const before = await snapshot();
    const jpeg = { filename: 'a.jpg', contentType: 'image/jpeg', data: await imageOf(800, 600) };
    const form = formData({ amount: '100', title: 'nice\u0000title' }, jpeg);
    const res = await browser.request({
      method: 'POST',
      url: '/api/payment/checkout-with-image-upload',
      ...form,
    });
    expectFieldList(res, 'upload');
    expect(res.json()[0].field).toBe('title');
    expect(await snapshot()).toEqual(before);
  });
});

describe('broken URL encodings', () => {
  it('answer 400 with the field list on every route, in a parameter or anywhere in the path', async () => {
    for (const { method, url } of [...routes, { method: 'GET', url: '/api/pictures/:id' }]) {
      const res = await browser.request({
        method: method as 'GET',
        url: /[:*]/.test(url) ? withParams(url, '%E0%A4%A') : `${url}/%E0%A4%A`,
        payload: hasBody(method) ? {} : undefined,
      });
      if (!/[:*]/.test(url) && res.statusCode === 404) continue; // no such route: the 404 test below
      expectFieldList(res, `${method} ${url}`);
    }
    expectFieldList(await t.client().get('/api/pictures/%E0%A4%A'), 'the reported one');
  });
});

describe('unknown routes', () => {
  it('answer 404 with {message}, like the app’s other 404s, whatever the method', async () => {
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      for (const url of ['/api/nothing-here', '/api/pictures/1/nothing', '/nothing-at-all']) {
        const res = await browser.request({ method, url, payload: hasBody(method) ? {} : undefined });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json(), `${method} ${url}`).toEqual({ message: `Route ${method}:${url} not found` });
      }
    }
  });
});

describe('multipart bodies that cannot be read', () => {
  const uploadRaw = (contentType: string, payload: string | Buffer) =>
    browser.request({
      method: 'POST',
      url: '/api/payment/checkout-with-image-upload',
      headers: { 'content-type': contentType },
      payload,
    });

  it('answer 400 with the field list when the boundary is missing', async () => {
    const before = await snapshot();
    expectFieldList(await uploadRaw('multipart/form-data', 'whatever'), 'no boundary');
    expectFieldList(await uploadRaw('multipart/form-data; charset=utf-8', '--x\r\n'), 'no boundary, charset');
    expect(await snapshot()).toEqual(before);
  });

  it('answer 400 with the field list when the body is cut off, and charge nothing', async () => {
    const before = await snapshot();
    const jpeg = await imageOf(800, 600);
    const whole = formData({ amount: '100' }, { filename: 'a.jpg', contentType: 'image/jpeg', data: jpeg });
    for (const cut of [whole.payload.length - 10, Math.floor(whole.payload.length / 2), 60]) {
      const res = await uploadRaw(whole.headers['content-type']!, whole.payload.subarray(0, cut));
      expectFieldList(res, `cut at ${cut}`);
    }
    expect(await snapshot()).toEqual(before);
    expect((await checkConservation(t.ctx.db)).ok).toBe(true);
  });
});

describe('requests the HTTP parser cannot read', () => {
  it('get a 400 with the field list, not Fastify’s own shape', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\nBad Header Line\r\n\r\n');
      });
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as unknown;
    expect(body).toEqual([{ field: 'request', errorText: expect.any(String) }]);
  });
});
