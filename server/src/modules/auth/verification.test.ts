import { afterEach, describe, expect, it } from 'vitest';
import { makeUser, signIn } from '../../test/factories';
import { startTestApp, type TestApp } from '../../test/harness';

/** Where verification links and checkout pages point, and how long a verification link works. */

let seq = 0;
const account = (email: string) => ({
  username: `ver_${process.pid % 1000}_${++seq}`,
  password: 'secret123',
  email,
  currentPath: '/',
});
const linkIn = (text: string) => new URL(/https?:\/\/\S+\/verify-email\?\S+/.exec(text)![0]);
const mailTo = (t: TestApp, email: string) => linkIn(t.mailer.sent.find((m) => m.to === email)!.text);

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('links in verification mails', () => {
  it('point at PUBLIC_URL whatever Host or X-Forwarded-Host the request carried', async () => {
    t = await startTestApp({ env: { PUBLIC_URL: 'https://wall.example', TRUST_PROXY: 'loopback' } });
    const headers = { host: 'evil.example', 'x-forwarded-host': 'evil.example', origin: 'http://evil.example' };
    expect((await t.client().post('/api/auth/register', account('a@example.test'), headers)).statusCode).toBe(200);
    expect(mailTo(t, 'a@example.test').origin).toBe('https://wall.example');
  });

  it('never point at a host nobody configured: X-Forwarded-Host from a client is ignored', async () => {
    t = await startTestApp();
    const res = await t.client().post('/api/auth/register', account('b@example.test'), {
      'x-forwarded-host': 'evil.example',
    });
    expect(res.statusCode).toBe(200);
    expect(mailTo(t, 'b@example.test').origin).toBe('http://localhost:3000');
  });

  it('never point at an unconfigured Host either, but keep a configured charity host', async () => {
    t = await startTestApp({ env: { CHARITY_HOSTS: 'green.example' } });
    const on = (host: string) => ({ host, origin: `http://${host}` });
    await t.client().post('/api/auth/register', account('c@example.test'), on('evil.example'));
    expect(mailTo(t, 'c@example.test').origin).toBe('http://localhost:3000');
    await t.client().post('/api/auth/register', account('d@example.test'), on('green.example'));
    expect(mailTo(t, 'd@example.test').origin).toBe('http://green.example');
  });
});

describe('verification mails on the tenant the user signed up on (issue 22 item 14)', () => {
  const on = (host: string) => ({ host, origin: `http://${host}` });
  const mailOf = (t: TestApp, email: string) => t.mailer.sent.find((m) => m.to === email)!;

  it("link to green.localhost:3000 and come from 'The green app' in the README's walk-through, nothing configured", async () => {
    t = await startTestApp();
    const res = await t.client().post('/api/auth/register', account('green@example.test'), on('green.localhost:3000'));
    expect(res.statusCode, res.body).toBe(200);
    expect(mailTo(t, 'green@example.test').origin).toBe('http://green.localhost:3000');
    expect(mailOf(t, 'green@example.test').senderName).toBe('The green app');
    expect(mailOf(t, 'green@example.test').text).toContain('Welcome to The green app!');

    await t.client().post('/api/auth/register', account('flex@example.test'), on('localhost:3000'));
    expect(mailTo(t, 'flex@example.test').origin).toBe('http://localhost:3000');
    expect(mailOf(t, 'flex@example.test').senderName).toBe('The ultimate flex');
  });

  it('never link to a name under localhost on another port than a cash host, nor to a lookalike', async () => {
    t = await startTestApp();
    for (const [i, host] of [
      'green.localhost:4000',
      'localhost.evil.example:3000',
      'green.localhost.evil.example:3000',
    ].entries()) {
      await t.client().post('/api/auth/register', account(`odd${i}@example.test`), on(host));
      expect(mailTo(t, `odd${i}@example.test`).origin, host).toBe('http://localhost:3000');
      expect(mailOf(t, `odd${i}@example.test`).senderName, host).toBe('The green app'); // the tenant it was sent from
    }
  });

  it('link to a configured charity host even with PUBLIC_URL set, and cash sign-ups to PUBLIC_URL', async () => {
    t = await startTestApp({ env: { PUBLIC_URL: 'https://wall.example', CHARITY_HOSTS: 'green.example' } });
    await t.client().post('/api/auth/register', account('e@example.test'), on('green.example'));
    expect(mailTo(t, 'e@example.test').origin).toBe('http://green.example');
    await t.client().post('/api/auth/register', account('f@example.test'), on('localhost:3000'));
    expect(mailTo(t, 'f@example.test').origin).toBe('https://wall.example');
    expect(mailOf(t, 'f@example.test').senderName).toBe('The ultimate flex');
  });
});

describe('checkout redirects', () => {
  it('send the payment window to a configured host, not to X-Forwarded-Host', async () => {
    t = await startTestApp();
    const browser = await signIn(t, (await makeUser(t.ctx)).id);
    const res = await browser.post('/api/payment/checkout', { amount: 500 }, { 'x-forwarded-host': 'evil.example' });
    expect(res.statusCode).toBe(200);
    expect(new URL(res.json().url).origin).toBe('http://localhost:3000');
  });
});

describe('a verification link', () => {
  it('works for EMAIL_VERIFY_HOURS, then says it has expired and verifies nothing', async () => {
    const start = Date.now();
    let now = new Date(start);
    t = await startTestApp({ now: () => now, env: { EMAIL_VERIFY_HOURS: '24' } });
    const browser = t.client();
    await browser.post('/api/auth/register', account('late@example.test'));
    const link = mailTo(t, 'late@example.test');
    const body = { userId: link.searchParams.get('userId'), secret: link.searchParams.get('secret') };

    now = new Date(start + 24 * 3_600_000 + 1000);
    const res = await t.client().post('/api/auth/verify-email', body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual([{ field: 'secret', errorText: 'This verification link has expired.' }]);
    expect((await browser.get('/api/user/profile')).json().emailVerified).toBe(false);
  });

  it('works once: a second use answers "already verified"', async () => {
    const start = Date.now();
    let now = new Date(start);
    t = await startTestApp({ now: () => now });
    await t.client().post('/api/auth/register', account('once@example.test'));
    const link = mailTo(t, 'once@example.test');
    const body = { userId: link.searchParams.get('userId'), secret: link.searchParams.get('secret') };

    now = new Date(start + 23 * 3_600_000);
    const first = await t.client().post('/api/auth/verify-email', body);
    expect(first.json()).toEqual({ message: 'Email verified. Thank you!' });
    // Later clicks, even after the link's time ran out, change nothing and say so.
    now = new Date(start + 48 * 3_600_000);
    const again = await t.client().post('/api/auth/verify-email', body);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ message: 'Your email address is already verified.' });
    const wrong = await t.client().post('/api/auth/verify-email', { ...body, secret: 'not-the-secret' });
    expect(wrong.statusCode).toBe(400);
  });
});
