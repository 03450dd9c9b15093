import { describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness';

/**
 * The per-account sign-in throttle: strangers' failures cannot lock the owner out on their usual address, and a
 * 429 says truthfully how long to wait. Addresses are the connection's own (no proxy is trusted here).
 */

let seq = 0;
const account = () => ({
  username: `thr_${process.pid % 1000}_${++seq}`,
  password: 'secret123',
  email: 'owner@example.test',
  currentPath: '/',
});

const from = (t: TestApp, remoteAddress: string, url: string, payload: object) =>
  t.client().request({ method: 'POST', url, payload, remoteAddress });
const login = (t: TestApp, ip: string, username: string, password: string) =>
  from(t, ip, '/api/auth/login/basic', { username, password });

describe('the per-account throttle', () => {
  it("lets the owner sign in from their usual address while strangers' guesses have throttled the account", async () => {
    const t = await startTestApp({ config: { accountLoginLimit: 3 } });
    try {
      const owner = account();
      expect((await from(t, '192.0.2.10', '/api/auth/register', owner)).statusCode).toBe(200);
      // A home address the owner also signed in from.
      expect((await login(t, '192.0.2.20', owner.username, owner.password)).statusCode).toBe(200);

      for (let i = 0; i < 3; i++) {
        expect((await login(t, `203.0.113.${i}`, owner.username, 'guess1234')).statusCode).toBe(400);
      }
      // Strangers are throttled now, even with the right password (guessing would go on otherwise)...
      expect((await login(t, '203.0.113.99', owner.username, owner.password)).statusCode).toBe(429);
      // ...but the owner, where they signed up or signed in before, is not.
      expect((await login(t, '192.0.2.10', owner.username, owner.password)).statusCode).toBe(200);
      expect((await login(t, '192.0.2.20', owner.username, owner.password)).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('still limits guesses from the usual address itself', async () => {
    const t = await startTestApp({ config: { accountLoginLimit: 2 } });
    try {
      const owner = account();
      await from(t, '192.0.2.30', '/api/auth/register', owner);
      expect((await login(t, '192.0.2.30', owner.username, 'guess1234')).statusCode).toBe(400);
      expect((await login(t, '192.0.2.30', owner.username, 'guess1234')).statusCode).toBe(400);
      expect((await login(t, '192.0.2.30', owner.username, owner.password)).statusCode).toBe(429);
    } finally {
      await t.close();
    }
  });

  it('says how long to wait, from the window, with Retry-After', async () => {
    const start = Date.now();
    let now = new Date(start);
    const t = await startTestApp({ now: () => now, config: { accountLoginLimit: 2 } });
    try {
      const owner = account();
      await from(t, '192.0.2.40', '/api/auth/register', owner);
      for (let i = 0; i < 2; i++) await login(t, '203.0.113.50', owner.username, 'guess1234');

      const first = await login(t, '203.0.113.50', owner.username, owner.password);
      expect(first.statusCode).toBe(429);
      expect(first.json()).toEqual({ message: 'Too many attempts. Try again in 15 minutes.' });
      expect(first.headers['retry-after']).toBe('900');

      now = new Date(start + 3 * 60_000 + 10_000);
      const later = await login(t, '203.0.113.51', owner.username, owner.password);
      expect(later.statusCode).toBe(429);
      expect(later.json()).toEqual({ message: 'Too many attempts. Try again in 12 minutes.' });
      expect(later.headers['retry-after']).toBe('710');

      now = new Date(start + 15 * 60_000 + 1000);
      expect((await login(t, '203.0.113.51', owner.username, owner.password)).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('the per-IP limit', () => {
  it('says how long to wait, with Retry-After, in the same words', async () => {
    const t = await startTestApp({ config: { authRateLimit: 1 } });
    try {
      await login(t, '203.0.113.60', 'someone', 'guess1234');
      const limited = await login(t, '203.0.113.60', 'someone', 'guess1234');
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({ message: 'Too many attempts. Try again in a minute.' });
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
    } finally {
      await t.close();
    }
  });
});
