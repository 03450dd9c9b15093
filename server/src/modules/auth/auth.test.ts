import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../../test/harness';
import { checkConservation } from '../../ledger/conservation';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

let seq = 0;
const freshName = () => `reg_${process.pid % 1000}_${++seq}`;
const good = (over: Record<string, unknown> = {}) => ({
  username: freshName(),
  password: 'secret123',
  email: 'someone@example.test',
  currentPath: '/image/42',
  ...over,
});

function register(client: TestClient, body: Record<string, unknown>) {
  return client.post('/api/auth/register', body);
}

const fields = (body: string) => (JSON.parse(body) as { field: string }[]).map((e) => e.field).sort();

describe('registration', () => {
  it('creates the account, signs the browser in and sends it back to the page it came from', async () => {
    const browser = t.client();
    const body = good();
    const res = await register(browser, body);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ url: '/image/42' });
    const cookie = res.cookies.find((c) => c.name === 'sid');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');

    const profile = await browser.get('/api/user/profile');
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({ username: body.username, balance: 0, emailVerified: false });
    expect(profile.json().badge).toMatch(/^[A-Z2-9]{8}$/);
    expect((await checkConservation(t.ctx.db)).ok).toBe(true);
  });

  it('sends the browser to / when the page it names is on another site', async () => {
    for (const currentPath of ['https://evil.example/x', '//evil.example', '/\\evil.example', 'image/1', '']) {
      const res = await register(t.client(), good({ currentPath }));
      expect(res.json(), currentPath).toEqual({ url: '/' });
    }
  });

  it('lists every problem at once: malformed username, short password, bad email', async () => {
    const res = await register(t.client(), { username: 'a b', password: 'short1', email: 'nope', currentPath: '/' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual([
      { field: 'username', errorText: 'Use 3 to 20 letters, digits or underscores.' },
      { field: 'password', errorText: 'Use at least 8 characters, with at least one letter and one digit.' },
      { field: 'email', errorText: 'Enter a valid email address.' },
    ]);
  });

  it('refuses a username that differs from a taken one only in case', async () => {
    const name = freshName();
    expect((await register(t.client(), good({ username: name }))).statusCode).toBe(200);
    const res = await register(t.client(), good({ username: name.toUpperCase() }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual([{ field: 'username', errorText: 'This username is already taken.' }]);
  });

  it('lets only one of two simultaneous sign-ups take the same username', async () => {
    const name = freshName();
    const [a, b] = await Promise.all([
      register(t.client(), good({ username: name })),
      register(t.client(), good({ username: name.toUpperCase() })),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 400]);
    expect([a, b].find((r) => r.statusCode === 400)!.json()).toEqual([
      { field: 'username', errorText: 'This username is already taken.' },
    ]);
    expect((await checkConservation(t.ctx.db)).ok).toBe(true);
  });

  it('refuses passwords without a digit, without a letter, or longer than 128 characters', async () => {
    for (const [password, text] of [
      ['onlyletters', 'Use at least one letter and one digit.'],
      ['1234567890', 'Use at least one letter and one digit.'],
      [`a1${'x'.repeat(127)}`, 'Use at most 128 characters.'],
    ]) {
      const res = await register(t.client(), good({ password }));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual([{ field: 'password', errorText: text }]);
    }
  });

  it('answers empty fields, huge strings, wrong types and missing fields with 400, never 500', async () => {
    const empty = await register(t.client(), { username: '', password: '', email: '', currentPath: '' });
    expect(empty.statusCode).toBe(400);
    expect(fields(empty.body)).toEqual(['email', 'password', 'username']);
    expect(empty.json()[0]).toEqual({ field: 'username', errorText: 'Choose a username.' });

    const huge = 'x'.repeat(200_000);
    const big = await register(t.client(), { username: huge, password: `${huge}1`, email: `${huge}@x.io` });
    expect(big.statusCode).toBe(400);
    expect(fields(big.body)).toEqual(['email', 'password', 'username']);

    const wrongType = await register(t.client(), good({ username: { $ne: null } }));
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json()[0].field).toBe('username');

    const missing = await register(t.client(), { username: freshName(), password: 'secret123' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual([{ field: 'email', errorText: 'This field is required.' }]);

    const notJson = await t.client().request({
      method: 'POST',
      url: '/api/auth/register',
      payload: '{"username":',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.statusCode).toBe(400);
  });

  it('refuses a registration sent from another site', async () => {
    const res = await t.client().post('/api/auth/register', good(), { origin: 'http://evil.example' });
    expect(res.statusCode).toBe(403);
  });
});

describe('email verification', () => {
  const linkIn = (text: string) => new URL(/https?:\/\/\S+\/verify-email\?\S+/.exec(text)![0]);

  it('verifies the address with the link from the welcome mail', async () => {
    const browser = t.client();
    const body = good({ email: 'verify.me@example.test' });
    await register(browser, body);
    const mail = t.mailer.sent.find((m) => m.to === 'verify.me@example.test')!;
    const link = linkIn(mail.text);
    expect(link.origin).toBe('http://localhost:3000');

    const res = await t.client().post('/api/auth/verify-email', {
      userId: link.searchParams.get('userId'),
      secret: link.searchParams.get('secret'),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toMatch(/verified/i);
    expect((await browser.get('/api/user/profile')).json().emailVerified).toBe(true);

    const again = await t.client().post('/api/auth/verify-email', {
      userId: Number(link.searchParams.get('userId')),
      secret: link.searchParams.get('secret'),
    });
    expect(again.statusCode).toBe(200);
  });

  it('refuses a wrong secret, an unknown user and nonsense with 400', async () => {
    await register(t.client(), good({ email: 'wrong.secret@example.test' }));
    const link = linkIn(t.mailer.sent.find((m) => m.to === 'wrong.secret@example.test')!.text);
    const userId = link.searchParams.get('userId');
    for (const body of [
      { userId, secret: 'not-the-secret' },
      { userId: 999_999_999, secret: link.searchParams.get('secret') },
      { userId: 'abc', secret: 'x' },
      { userId: '1e400', secret: 'x' },
      { userId, secret: '' },
      { userId },
      {},
    ]) {
      const res = await t.client().post('/api/auth/verify-email', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Array.isArray(res.json())).toBe(true);
    }
  });
});

describe('password sign-in', () => {
  it('signs in with any letter case of the username and answers hasNickname', async () => {
    const body = good();
    await register(t.client(), body);
    const browser = t.client();
    const res = await browser.post('/api/auth/login/basic', {
      username: body.username.toUpperCase(),
      password: body.password,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ hasNickname: true });
    expect((await browser.get('/api/user/profile')).json().username).toBe(body.username);
  });

  it('gives the same answer for a wrong password and an unknown user', async () => {
    const body = good();
    await register(t.client(), body);
    const wrong = await t.client().post('/api/auth/login/basic', { username: body.username, password: 'nope12345' });
    const unknown = await t.client().post('/api/auth/login/basic', { username: 'nobody_here', password: 'nope12345' });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual([{ field: 'password', errorText: 'Wrong username or password.' }]);
      expect(res.cookies.find((c) => c.name === 'sid')).toBeUndefined();
    }
  });

  it('answers nonsense input with 400', async () => {
    for (const body of [{}, { username: 'x' }, { username: ['a'], password: 'b' }, { username: '', password: '' }]) {
      const res = await t.client().post('/api/auth/login/basic', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const huge = await t.client().post('/api/auth/login/basic', { username: 'x'.repeat(100_000), password: 'y' });
    expect(huge.json()).toEqual([{ field: 'password', errorText: 'Wrong username or password.' }]);
  });
});

describe('logout', () => {
  it('ends the session: the profile then answers 401', async () => {
    const browser = t.client();
    await register(browser, good());
    expect((await browser.get('/api/user/profile')).statusCode).toBe(200);
    const token = browser.cookies.get('sid')!;

    const res = await browser.post('/api/auth/logout', {});
    expect(res.statusCode).toBe(200);
    expect(browser.cookies.has('sid')).toBe(false);
    expect((await browser.get('/api/user/profile')).statusCode).toBe(401);
    // The old cookie is dead on the server too, not just forgotten by this browser.
    const replay = await t.app.inject({ method: 'GET', url: '/api/user/profile', cookies: { sid: token } });
    expect(replay.statusCode).toBe(401);
  });

  it('works when not signed in, with or without a body', async () => {
    expect((await t.client().post('/api/auth/logout', {})).statusCode).toBe(200);
    const bare = await t.client().request({ method: 'POST', url: '/api/auth/logout' });
    expect(bare.statusCode).toBe(200);
  });
});

describe('nickname', () => {
  it('is refused to a visitor who is not signed in', async () => {
    const res = await t.client().post('/api/auth/set-nickname', { nickname: freshName(), currentPath: '/' });
    expect(res.statusCode).toBe(401);
  });

  it('is refused to a user who already has a username', async () => {
    const browser = t.client();
    await register(browser, good());
    const res = await browser.post('/api/auth/set-nickname', { nickname: freshName(), currentPath: '/' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual([{ field: 'nickname', errorText: 'You already have a nickname.' }]);
  });
  // Setting a nickname for real needs a Google user without one: see google.test.ts.
});
