import { describe, expect, it } from 'vitest';
import { startTestApp, type TestClient } from '../../test/harness';

/** Limits that need an app of their own: a movable clock, or a low limit that must not throttle other tests. */

let seq = 0;
const good = () => ({
  username: `lim_${process.pid % 1000}_${++seq}`,
  password: 'secret123',
  email: 'someone@example.test',
  currentPath: '/',
});
const register = (client: TestClient, body: Record<string, unknown>) => client.post('/api/auth/register', body);

describe('sessions', () => {
  it('expire after the configured number of days', async () => {
    // The test browser drops cookies that expired by the real clock, so the server's clock starts at today.
    const start = Date.now();
    let now = new Date(start);
    const day = 86_400_000;
    const app = await startTestApp({ now: () => now, config: { sessionDays: 30 } });
    try {
      const browser = app.client();
      await register(browser, good());
      now = new Date(start + 30 * day - 60_000);
      expect((await browser.get('/api/user/profile')).statusCode).toBe(200);
      now = new Date(start + 30 * day + 1000);
      expect((await browser.get('/api/user/profile')).statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });
});

describe('rate limits', () => {
  it('answer 429 after too many sign-in attempts from one address in a minute', async () => {
    // The test browser is "the proxy" (127.0.0.1), so X-Forwarded-For names the client's address.
    const app = await startTestApp({ config: { authRateLimit: 3 }, env: { TRUST_PROXY: 'loopback' } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await app.client().post('/api/auth/login/basic', { username: 'someone', password: 'x' });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([400, 400, 400, 429]);
      const limited = await app.client().post('/api/auth/login/basic', { username: 'someone', password: 'x' });
      expect(limited.json()).toEqual({ message: 'Too many attempts. Try again in a minute.' });
      // Another address is not affected (the app trusts its proxy's X-Forwarded-For).
      const other = await app
        .client()
        .post('/api/auth/login/basic', { username: 'someone', password: 'x' }, { 'x-forwarded-for': '203.0.113.9' });
      expect(other.statusCode).toBe(400);

      const regs: number[] = [];
      for (let i = 0; i < 4; i++) regs.push((await register(app.client(), good())).statusCode);
      expect(regs).toEqual([200, 200, 200, 429]);
    } finally {
      await app.close();
    }
  });

  it('throttle one account after too many failed passwords, from any address, for 15 minutes', async () => {
    const start = Date.now();
    let now = new Date(start);
    const app = await startTestApp({
      now: () => now,
      config: { accountLoginLimit: 3 },
      env: { TRUST_PROXY: 'loopback' },
    });
    try {
      const body = good();
      await register(app.client(), body);
      const attempt = (password: string, ip: string) =>
        app.client().post('/api/auth/login/basic', { username: body.username, password }, { 'x-forwarded-for': ip });

      for (let i = 0; i < 3; i++) expect((await attempt('wrong1234', `198.51.100.${i}`)).statusCode).toBe(400);
      // The right password does not get through while the account is throttled: guessing would go on otherwise.
      expect((await attempt(body.password, '198.51.100.50')).statusCode).toBe(429);
      // Other accounts are untouched.
      const other = good();
      await register(app.client(), other);
      const fine = await app
        .client()
        .post('/api/auth/login/basic', { username: other.username, password: 'secret123' });
      expect(fine.statusCode).toBe(200);

      now = new Date(start + 15 * 60_000 + 1000);
      expect((await attempt(body.password, '198.51.100.60')).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
