import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { startTestApp, type TestApp } from '../test/harness';

/**
 * X-Forwarded-For, -Proto and -Host count only when they come from a proxy that TRUST_PROXY names. The test
 * browser connects from 127.0.0.1, so 'loopback' makes it "the proxy".
 */

let seq = 0;
const account = () => ({
  username: `proxy_${process.pid % 1000}_${++seq}`,
  password: 'secret123',
  email: 'proxy@example.test',
  currentPath: '/',
});

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const login = (t: TestApp, headers: Record<string, string>) =>
  t.client().post('/api/auth/login/basic', { username: 'someone', password: 'wrong-one1' }, headers);

describe('TRUST_PROXY unset (the default)', () => {
  it('ignores X-Forwarded-For: a new made-up address per request does not escape the per-IP limit', async () => {
    app = await startTestApp({ config: { authRateLimit: 3 } });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await login(app, { 'x-forwarded-for': `203.0.113.${i}` })).statusCode);
    expect(statuses).toEqual([400, 400, 400, 429, 429]);
  });

  it('ignores X-Forwarded-Proto: the session cookie is not Secure because a client says https', async () => {
    app = await startTestApp();
    const res = await app.client().post('/api/auth/register', account(), { 'x-forwarded-proto': 'https' });
    expect(res.statusCode).toBe(200);
    expect(res.cookies.find((c) => c.name === 'sid')?.secure).toBeFalsy();
  });

  it('ignores X-Forwarded-Host: the Host header decides the site', async () => {
    app = await startTestApp();
    // The origin check compares with the Host header, not with a forwarded host the client made up.
    const forged = await app.client().post(
      '/api/auth/logout',
      {},
      {
        'x-forwarded-host': 'evil.example',
        origin: 'http://evil.example',
      },
    );
    expect(forged.statusCode).toBe(403);
  });
});

describe('TRUST_PROXY naming the proxy', () => {
  it('counts the address the proxy forwarded, per client', async () => {
    app = await startTestApp({ env: { TRUST_PROXY: 'loopback' }, config: { authRateLimit: 2 } });
    const one = { 'x-forwarded-for': '198.51.100.1' };
    expect([(await login(app, one)).statusCode, (await login(app, one)).statusCode]).toEqual([400, 400]);
    expect((await login(app, one)).statusCode).toBe(429);
    expect((await login(app, { 'x-forwarded-for': '198.51.100.2' })).statusCode).toBe(400);
  });

  it('with a hop count, takes the address the last proxy saw, not one the client put first', async () => {
    app = await startTestApp({ env: { TRUST_PROXY: '1' }, config: { authRateLimit: 2 } });
    const from = (spoofed: string) => ({ 'x-forwarded-for': `${spoofed}, 198.51.100.7` });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await login(app, from(`203.0.113.${i}`))).statusCode);
    expect(statuses).toEqual([400, 400, 429]);
  });

  it('makes the session cookie Secure when the proxy says the browser came over https', async () => {
    app = await startTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
    const secure = await app.client().post('/api/auth/register', account(), { 'x-forwarded-proto': 'https' });
    expect(secure.cookies.find((c) => c.name === 'sid')?.secure).toBe(true);
    const plain = await app.client().post('/api/auth/register', account(), { 'x-forwarded-proto': 'http' });
    expect(plain.cookies.find((c) => c.name === 'sid')?.secure).toBeFalsy();
  });

  it('takes the site from X-Forwarded-Host, for the origin check and the tenant', async () => {
    app = await startTestApp({ env: { TRUST_PROXY: 'loopback', CASH_HOSTS: 'flex.example' } });
    const browser = app.client();
    const headers = { host: 'app-internal:3000', 'x-forwarded-host': 'flex.example', origin: 'https://flex.example' };
    const res = await browser.post('/api/auth/register', account(), headers);
    expect(res.statusCode).toBe(200);
    // flex.example is a cash tenant: card top-up is offered there.
    const checkout = await browser.post('/api/payment/checkout', { amount: 500, url: '/' }, headers);
    expect(checkout.statusCode).toBe(200);
  });
});

describe('TRUST_PROXY values', () => {
  it('reads off, a hop count, or a list of addresses and ranges', () => {
    for (const off of [undefined, '', '0', 'false', 'off']) {
      expect(loadConfig(off === undefined ? {} : { TRUST_PROXY: off }).trustProxy).toBe(false);
    }
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.1.0.0/16, fd00::/8, loopback' }).trustProxy).toEqual([
      '10.0.0.1',
      '10.1.0.0/16',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('refuses anything else with one line naming the variable', () => {
    for (const bad of ['true', 'yes-please', '10.0.0.0/33', '300.1.1.1', '10.0.0.1/8/8']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/^TRUST_PROXY must be a hop count or/);
    }
  });
});
