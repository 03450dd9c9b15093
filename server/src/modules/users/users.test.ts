import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkConservation } from '../../ledger/conservation';
import { creditTopUp } from '../../ledger/commands';
import { startTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

let seq = 0;
async function signedUp() {
  const browser = t.client();
  const username = `prof_${process.pid % 1000}_${++seq}`;
  const res = await browser.post('/api/auth/register', {
    username,
    password: 'secret123',
    email: `${username}@example.test`,
    currentPath: '/',
  });
  expect(res.statusCode).toBe(200);
  const { id } = (await browser.get('/api/user/profile')).json() as { id: number };
  return { browser, username, id };
}

describe('GET /api/user/profile', () => {
  it('shows a new user their account, with "first login" set on the first read only', async () => {
    const browser = t.client();
    const username = `prof_first_${process.pid % 1000}`;
    await browser.post('/api/auth/register', { username, password: 'secret123', email: 'f@example.test' });
    const first = await browser.get('/api/user/profile');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      id: expect.any(Number),
      username,
      balance: 0,
      keyCount: 0,
      lootBoxCount: 0,
      profileImageUrl: null,
      badge: expect.stringMatching(/^[A-Z2-9]{8}$/),
      firstLogin: true,
      emailVerified: false,
      isAdmin: false,
      goodWill: 'OPEN_SOURCE',
      suspended: false,
      suspendedUntil: null,
    });
    expect((await browser.get('/api/user/profile')).json().firstLogin).toBe(false);
  });

  it('shows the balance in cents from the ledger', async () => {
    const { browser, id } = await signedUp();
    await t.ctx.transact((work) => creditTopUp(work, id, 1234, `test-profile-${id}`));
    expect((await browser.get('/api/user/profile')).json().balance).toBe(1234);
    expect((await checkConservation(t.ctx.db)).ok).toBe(true);
  });

  it('gives every user a different badge', async () => {
    const badges = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const { browser } = await signedUp();
      badges.add((await browser.get('/api/user/profile')).json().badge);
    }
    expect(badges.size).toBe(5);
  });

  it('answers 401 to a visitor who is not signed in, or whose cookie is made up', async () => {
    expect((await t.client().get('/api/user/profile')).statusCode).toBe(401);
    const forged = await t.app.inject({ method: 'GET', url: '/api/user/profile', cookies: { sid: 'made-up' } });
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toEqual({ message: 'Sign in first.' });
  });
});

describe('GET /api/user/user-info/:userId', () => {
  it('shows anyone the username and picture of a user', async () => {
    const { id, username } = await signedUp();
    const res = await t.client().get(`/api/user/user-info/${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ username, profileImageUrl: null });
  });

  it('answers 404 for an unknown user and 400 for an id that is not a number', async () => {
    expect((await t.client().get('/api/user/user-info/999999999')).statusCode).toBe(404);
    for (const bad of ['abc', '-1', '1.5', '1e400', '9'.repeat(40)]) {
      const res = await t.client().get(`/api/user/user-info/${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()[0].field).toBe('userId');
    }
  });
});
