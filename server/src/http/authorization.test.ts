import Fastify from 'fastify';
import { Type } from 'typebox';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import type { App } from '../context';
import type { SessionUser } from './auth';
import { isAdmin, policy, publicScope, registerAuthorization } from './authorization';
import { registerErrorHandler } from './hooks';

let app: App;
beforeEach(() => {
  app = Fastify({ logger: false }) as unknown as App;
  registerErrorHandler(app);
  // Who calls: the test says it in a header (the real app loads the session cookie, http/auth.ts).
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (req) => {
    const who = req.headers['x-user'];
    const user = typeof who === 'string' ? (JSON.parse(who) as SessionUser) : null;
    req.user = user && {
      ...user,
      suspendedUntil: user.suspendedUntil ? new Date(user.suspendedUntil) : null,
      suspendedForGood: user.suspendedForGood ?? false,
    };
  });
  registerAuthorization(app, { config: loadConfig({ PORT: '3000' }) });
});
afterEach(() => app.close());

const alice = { 'x-user': JSON.stringify({ id: 1, username: 'alice', isAdmin: false }) };
const root = { 'x-user': JSON.stringify({ id: 2, username: 'root', isAdmin: true }) };
const suspended = (until: string | null) => ({
  'x-user': JSON.stringify({ id: 3, username: 'sam', isAdmin: false, suspendedUntil: until, suspendedForGood: !until }),
});

/** A domain's policy with one rule checked at the edge, its subject read from the request. */
const doors = policy('doors', {
  enter: { base: 'public', allow: (_actor, door: { open: boolean }) => door.open },
});

describe('authorization declared at the route edge', () => {
  it('refuses to start with a route that declares no rule', () => {
    expect(() => app.get('/forgotten', async () => 'x')).toThrow('GET /forgotten declares no authorization rule');
  });

  it('lets a plugin’s routes in a public scope through as public', async () => {
    await publicScope(app, async (scope) => {
      scope.get('/plugin-page', async () => 'page');
    });
    expect((await app.inject({ url: '/plugin-page' })).statusCode).toBe(200);
  });

  it("answers 401 to a visitor on a 'user' route, in the contract's form, and lets a signed-in user in", async () => {
    app.get('/mine', { config: { auth: 'user' } }, async () => 'mine');
    const visitor = await app.inject({ url: '/mine' });
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json()).toEqual({ message: 'Sign in first.' });
    expect((await app.inject({ url: '/mine', headers: alice })).body).toBe('mine');
  });

  it("checks an 'admin' route before the input, with the one admin rule", async () => {
    const body = Type.Object({ n: Type.Integer() });
    app.post('/books', { config: { auth: 'admin' }, schema: { body } }, async () => 'books');
    const call = (headers = {}) => app.inject({ method: 'POST', url: '/books', payload: { n: 'bad' }, headers });
    expect((await call()).statusCode).toBe(401);
    const user = await call(alice);
    expect(user.statusCode).toBe(403);
    expect(user.json()).toEqual({ message: 'Administrators only.' });
    expect((await call(root)).statusCode).toBe(400); // only an administrator reaches validation
    expect(isAdmin(null)).toBe(false);
    expect(isAdmin({ id: 2, isAdmin: true })).toBe(true);
  });

  it("checks a domain's rule at the edge when the request alone names its subject", async () => {
    const enter = doors.atEdge('enter', (req) => ({ open: req.headers['x-door'] === 'open' }));
    expect(enter).toMatchObject({ name: 'doors.enter', base: 'public' });
    app.get('/door', { config: { auth: enter } }, async () => 'in');
    expect((await app.inject({ url: '/door', headers: { 'x-door': 'open' } })).body).toBe('in');
    const shut = await app.inject({ url: '/door' });
    expect(shut.statusCode).toBe(403);
    expect(shut.json()).toEqual({ message: 'Not allowed.' });
    expect(doors.can(null, 'enter', { open: true })).toBe(true);
    expect(() => doors.authorize(null, 'enter', { open: false })).toThrow('Not allowed.');
  });

  it("refuses a suspended user on a 'member' route before the input, with the end; the suspension ends by itself", async () => {
    const body = Type.Object({ n: Type.Integer() });
    app.post('/spend', { config: { auth: 'member' }, schema: { body } }, async () => 'spent');
    const call = (headers = {}, n: unknown = 'bad') =>
      app.inject({ method: 'POST', url: '/spend', payload: { n }, headers });
    expect((await call()).statusCode).toBe(401);
    const until = await call(suspended('2999-01-02T03:04:00.000Z'));
    expect(until.statusCode).toBe(403);
    expect(until.json()).toEqual({
      message: 'Your account is suspended until 2999-01-02 03:04 UTC.',
      suspendedUntil: '2999-01-02T03:04:00.000Z',
    });
    expect((await call(suspended(null))).json()).toEqual({
      message: 'Your account is suspended for good.',
      suspendedUntil: null,
    });
    expect((await call(alice)).statusCode).toBe(400);
    expect((await call(alice, 1)).body).toBe('spent');
    expect((await call(suspended('2000-01-01T00:00:00.000Z'), 1)).body).toBe('spent');
  });

  it("refuses a suspended user on a domain rule based on 'member', before the domain's own check", async () => {
    const vault = policy('vault', { open: { base: 'member', allow: () => false } });
    app.post('/vault', { config: { auth: vault.atEdge('open', () => ({})) } }, async () => 'opened');
    const sam = await app.inject({ method: 'POST', url: '/vault', headers: suspended(null) });
    expect(sam.statusCode).toBe(403);
    expect(sam.json()).toMatchObject({ suspendedUntil: null });
    expect((await app.inject({ method: 'POST', url: '/vault', headers: alice })).json()).toEqual({
      message: 'Not allowed.',
    });
  });
});
