import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser, signIn } from '../test/factories';
import { startTestApp, type TestApp, type TestClient } from '../test/harness';
import { rawExchange } from '../test/raw-http';
import { frameworkErrors } from './input';

/**
 * No 500, ever (issue 22, item 18): every kind of request that Fastify or Node's HTTP server refuses on its own, before
 * or instead of a route, answers its 4xx in the contract's form (docs/product.md#errors): 400 a list of
 * {field, errorText}, any other 4xx {message}.
 */

let t: TestApp;
let browser: TestClient;
let port: number;

beforeAll(async () => {
  t = await startTestApp();
  browser = await signIn(t, (await makeUser(t.ctx, { balance: 1000 })).id);
  port = Number(new URL(await t.app.listen({ port: 0, host: '127.0.0.1' })).port);
});
afterAll(() => t.close());

/** The answer is the contract's: a 400 is a list of {field, errorText}, any other error is {message}. */
function expectContractForm(status: number, body: string, what: string) {
  const parsed = JSON.parse(body) as unknown;
  if (status === 400) {
    expect(Array.isArray(parsed), `${what}: ${body}`).toBe(true);
    expect((parsed as unknown[]).length, what).toBeGreaterThan(0);
    for (const e of parsed as object[]) expect(Object.keys(e).sort(), what).toEqual(['errorText', 'field']);
  } else {
    expect(Object.keys(parsed as object), `${what}: ${body}`).toEqual(['message']);
  }
}

/** Stands for a signed-in browser's headers in the cases below; filled in when a case runs. */
const SIGNED_IN = '<signed-in>';
const signedInHeaders = () =>
  `Host: localhost:3000\r\nOrigin: http://localhost:3000\r\nCookie: ${browser.cookieHeader()}\r\n`;

describe('path parameters longer than the router takes', () => {
  it('answer 400 naming the parameter, on POST and GET alike (a 101-character payment id was a 500)', async () => {
    const long = 'a'.repeat(101);
    for (const [method, url, field] of [
      ['POST', `/api/payment/demo/${long}/pay`, 'id'],
      ['POST', `/api/payment/demo/${long}/cancel`, 'id'],
      ['GET', `/api/payment/${long}`, 'id'],
      ['GET', `/api/pictures/${'1'.repeat(101)}`, 'id'],
      ['GET', `/api/user/user-info/${'1'.repeat(5000)}`, 'userId'],
      ['GET', `/api/market/sell-offers/${'A'.repeat(300)}`, 'itemType'],
    ] as const) {
      const res = await browser.request({ method, url, payload: method === 'POST' ? {} : undefined });
      expect(res.statusCode, `${method} ${url.slice(0, 40)}: ${res.body}`).toBe(400);
      expect(res.json()[0].field, `${method} ${url.slice(0, 40)}`).toBe(field);
    }
  });

  it('past any length the router could hold, still 400 in the contract form (never a 500)', async () => {
    // The app's router takes parameters as long as a request line can be; a router with a small limit shows what
    // `frameworkErrors` answers when one is exceeded, and for a framework error it does not know by name.
    const app = Fastify({ logger: false, routerOptions: { maxParamLength: 10 }, frameworkErrors });
    app.post('/x/:id', async () => ({ ok: true }));
    // A framework error of a kind a later Fastify adds: a 400, not a 500.
    app.get('/y', (req, reply) =>
      frameworkErrors(Object.assign(new Error('new'), { code: 'FST_ERR_NEW_KIND' }), req, reply),
    );
    const res = await app.inject({ method: 'POST', url: `/x/${'a'.repeat(11)}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual([{ field: 'url', errorText: expect.stringMatching(/too long/) }]);
    const other = await app.inject({ method: 'GET', url: '/y' });
    expect(other.statusCode).toBe(400);
    expect(other.json()).toEqual([{ field: 'request', errorText: expect.any(String) }]);
    await app.close();
  });
});

describe('every kind of request Fastify or Node refuses', () => {
  const json = 'Content-Type: application/json\r\n';
  const cases: [string, string, number][] = [
    ['a broken %-encoding', `GET /api/pictures/%E0%A4%A HTTP/1.1\r\n${SIGNED_IN}\r\n`, 400],
    ['an unknown method', `PROPFIND /api/health HTTP/1.1\r\n${SIGNED_IN}\r\n`, 404],
    ['an unknown route', `GET /api/nothing HTTP/1.1\r\n${SIGNED_IN}\r\n`, 404],
    [
      'a body of a type no route reads',
      `POST /api/open/lootbox HTTP/1.1\r\n${SIGNED_IN}Content-Type: application/xml\r\nContent-Length: 4\r\n\r\n<a/>`,
      415,
    ],
    ['an empty JSON body', `POST /api/auth/login/basic HTTP/1.1\r\n${SIGNED_IN}${json}Content-Length: 0\r\n\r\n`, 400],
    [
      'JSON that does not parse',
      `POST /api/auth/login/basic HTTP/1.1\r\n${SIGNED_IN}${json}Content-Length: 1\r\n\r\n{`,
      400,
    ],
    [
      'a __proto__ key',
      `POST /api/auth/login/basic HTTP/1.1\r\n${SIGNED_IN}${json}Content-Length: 21\r\n\r\n{"__proto__":{"a":1}}`,
      400,
    ],
    [
      'a constructor.prototype key',
      `POST /api/auth/login/basic HTTP/1.1\r\n${SIGNED_IN}${json}Content-Length: 37\r\n\r\n{"constructor":{"prototype":{"a":1}}}`,
      400,
    ],
    [
      'a body over the limit',
      `POST /api/open/lootbox HTTP/1.1\r\n${SIGNED_IN}${json}Content-Length: 2000000\r\n\r\n{"a":"`,
      413,
    ],
    [
      'Content-Length beside chunked',
      `POST /api/open/lootbox HTTP/1.1\r\n${SIGNED_IN}${json}Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
      400,
    ],
    [
      'a broken chunk',
      `POST /api/open/lootbox HTTP/1.1\r\n${SIGNED_IN}${json}Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      400,
    ],
    ['a header line without a colon', `GET /api/health HTTP/1.1\r\n${SIGNED_IN}Bad Header Line\r\n\r\n`, 400],
    ['headers over the limit', `GET /api/health HTTP/1.1\r\n${SIGNED_IN}X-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    [
      'an Expect other than 100-continue',
      `POST /api/open/lootbox HTTP/1.1\r\n${SIGNED_IN}${json}Expect: 200-ok\r\nContent-Length: 2\r\n\r\n{}`,
      417,
    ],
    ['an HTTP/1.1 request without Host', `GET /api/health HTTP/1.1\r\n\r\n`, 400],
    ['an HTTP/2 preface', `PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n`, 400],
    ['a plain GET of the live socket', `GET /api/wss/universal HTTP/1.1\r\n${SIGNED_IN}\r\n`, 404],
  ];

  it.each(cases)('%s answers its 4xx in the contract form', async (what, text, status) => {
    const request = text.replace(SIGNED_IN, signedInHeaders()).replace(/\r\n\r\n/, '\r\nConnection: close\r\n\r\n');
    const answer = await rawExchange(port, request);
    expect(answer.status, `${what}: ${answer.body}`).toBe(status);
    expectContractForm(answer.status, answer.body, what);
    expect(answer.headers['content-type'], what).toMatch(/^application\/json/);
  });
});
