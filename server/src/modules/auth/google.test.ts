import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness';

/** A stand-in for Google: a key pair, its public half served as a JWKS on a local port, and a token minter. */
let jwks: http.Server;
let jwksUrl: string;
let googleKey: CryptoKey;
let strangerKey: CryptoKey;
let t: TestApp;

beforeAll(async () => {
  const pair = await generateKeyPair('RS256');
  googleKey = pair.privateKey;
  strangerKey = (await generateKeyPair('RS256')).privateKey;
  const publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  jwks = http.createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [publicJwk] }));
  });
  await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
  jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks`;
  t = await startTestApp({ config: { google: { clientId: 'test-client', jwksUrl } } });
});
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => jwks.close(resolve));
});

let subSeq = 0;
interface TokenOptions {
  sub?: string;
  aud?: string;
  iss?: string;
  exp?: number;
  key?: CryptoKey;
  claims?: Record<string, unknown>;
}

function idToken(opts: TokenOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ email: 'g.user@example.test', email_verified: true, ...opts.claims })
    .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
    .setSubject(opts.sub ?? `google-${process.pid}-${++subSeq}`)
    .setIssuer(opts.iss ?? 'https://accounts.google.com')
    .setAudience(opts.aud ?? 'test-client')
    .setIssuedAt(now - 60)
    .setExpirationTime(opts.exp ?? now + 3600)
    .sign(opts.key ?? googleKey);
}

const signIn = (browser: ReturnType<TestApp['client']>, token: string | undefined) =>
  browser.post('/api/auth/login/google', {}, token === undefined ? {} : { authorization: `Bearer ${token}` });

describe('Google sign-in', () => {
  it('creates an account without a nickname on first sign-in, with the verified email', async () => {
    const browser = t.client();
    const res = await signIn(browser, await idToken());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ hasNickname: false });
    const profile = (await browser.get('/api/user/profile')).json();
    expect(profile).toMatchObject({ username: null, balance: 0, emailVerified: true, firstLogin: true });
    expect(profile.badge).toMatch(/^[A-Z2-9]{8}$/);
  });

  it('accepts the issuer without https:// too, and does not trust an unverified email', async () => {
    const browser = t.client();
    const token = await idToken({ iss: 'accounts.google.com', claims: { email_verified: false } });
    expect((await signIn(browser, token)).statusCode).toBe(200);
    expect((await browser.get('/api/user/profile')).json().emailVerified).toBe(false);
  });

  it('lets the new user pick a nickname once, then signs them in with it', async () => {
    const sub = `google-nick-${process.pid}`;
    const browser = t.client();
    await signIn(browser, await idToken({ sub }));
    const nickname = `nick_${process.pid % 10000}`;

    const malformed = await browser.post('/api/auth/set-nickname', { nickname: 'no spaces!', currentPath: '/' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual([{ field: 'nickname', errorText: 'Use 3 to 20 letters, digits or underscores.' }]);
    const wrongType = await browser.post('/api/auth/set-nickname', { nickname: { a: 1 } });
    expect(wrongType.statusCode).toBe(400);

    const set = await browser.post('/api/auth/set-nickname', { nickname, currentPath: '/profile/me' });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ url: '/profile/me' });
    expect((await browser.get('/api/user/profile')).json().username).toBe(nickname);

    const again = await browser.post('/api/auth/set-nickname', { nickname: `${nickname}_2`, currentPath: '/' });
    expect(again.json()).toEqual([{ field: 'nickname', errorText: 'You already have a nickname.' }]);

    // Another Google user cannot take the same name in another letter case.
    const other = t.client();
    await signIn(other, await idToken());
    const taken = await other.post('/api/auth/set-nickname', { nickname: nickname.toUpperCase(), currentPath: '/' });
    expect(taken.json()).toEqual([{ field: 'nickname', errorText: 'This username is already taken.' }]);

    const later = t.client();
    expect((await signIn(later, await idToken({ sub }))).json()).toEqual({ hasNickname: true });
    expect((await later.get('/api/user/profile')).json().username).toBe(nickname);
  });

  it('does not let anyone sign in to a Google account with a password', async () => {
    const browser = t.client();
    await signIn(browser, await idToken());
    const nickname = `gpw_${process.pid % 10000}`;
    await browser.post('/api/auth/set-nickname', { nickname, currentPath: '/' });
    const res = await t.client().post('/api/auth/login/basic', { username: nickname, password: 'anything1' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual([{ field: 'password', errorText: 'Wrong username or password.' }]);
  });

  it('makes one account when the first two sign-ins of a person race', async () => {
    const sub = `google-race-${process.pid}`;
    const [a, b] = await Promise.all([
      signIn(t.client(), await idToken({ sub })),
      signIn(t.client(), await idToken({ sub })),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const ids = await Promise.all(
      [a, b].map(async (res) => {
        const cookie = res.cookies.find((c) => c.name === 'sid')!.value;
        return (await t.app.inject({ method: 'GET', url: '/api/user/profile', cookies: { sid: cookie } })).json().id;
      }),
    );
    expect(ids[0]).toBe(ids[1]);
  });

  it('refuses tokens for another app, from another issuer, expired, or with a forged signature', async () => {
    const now = Math.floor(Date.now() / 1000);
    const good = await idToken();
    const [head, body, sig] = good.split('.');
    const tampered = `${head}.${Buffer.from(JSON.stringify({ sub: 'admin', aud: 'test-client' })).toString('base64url')}.${sig}`;
    const cases: Record<string, string | undefined> = {
      'wrong audience': await idToken({ aud: 'someone-else' }),
      'wrong issuer': await idToken({ iss: 'https://evil.example' }),
      expired: await idToken({ exp: now - 10 }),
      'tampered payload': tampered,
      'signed by another key': await idToken({ key: strangerKey }),
      'flipped signature': `${head}.${body}.${sig!.slice(0, -4)}AAAA`,
      garbage: 'not-a-token',
      'no header': undefined,
    };
    for (const [name, token] of Object.entries(cases)) {
      const browser = t.client();
      const res = await signIn(browser, token);
      expect(res.statusCode, name).toBe(401);
      expect(browser.cookies.has('sid'), name).toBe(false);
    }
  });

  it('answers 503, not 401, when Google’s keys cannot be fetched', async () => {
    const app = await startTestApp({
      config: { google: { clientId: 'test-client', jwksUrl: 'http://127.0.0.1:9/unreachable' } },
    });
    try {
      const res = await signIn(app.client(), await idToken());
      expect(res.statusCode).toBe(503);
    } finally {
      await app.close();
    }
  });

  it('says so when Google sign-in is not set up on this server', async () => {
    const app = await startTestApp({ config: { google: undefined } });
    try {
      const res = await signIn(app.client(), await idToken());
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toMatch(/not set up/);
    } finally {
      await app.close();
    }
  });
});
