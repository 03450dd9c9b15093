import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser, signIn } from '../../test/factories';
import { startTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
const adminRoutes: { method: string; url: string }[] = [];
beforeAll(async () => {
  t = await startTestApp();
  // Every admin route the app has, so one added later is covered without touching this file.
  for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /(\/api\/admin\/\S*) \(([A-Z, ]+)\)/.exec(line.replace(/^[\s│├└─]+/, ''));
    if (m) for (const method of m[2]!.split(', ')) if (method !== 'HEAD') adminRoutes.push({ method, url: m[1]! });
  }
});
afterAll(() => t.close());

describe('admin policy: administrators only', () => {
  it('finds the admin routes to check', () => {
    expect(adminRoutes.map((r) => r.url)).toEqual(
      expect.arrayContaining([
        '/api/admin/am-i-worthy',
        '/api/admin/ledger-check',
        '/api/admin/reports',
        '/api/admin/user-donations/:userId',
        '/api/admin/all-links',
        '/api/admin/charity-categories',
        '/api/admin/charityNames',
        '/api/admin/charity-rejection-reasons',
        '/api/admin/charity/approve',
        '/api/admin/charity/reject',
      ]),
    );
  });

  it('answers 401 to visitors and 403 to signed-in users on every admin route, and 200 to an administrator', async () => {
    const user = await signIn(t, (await makeUser(t.ctx)).id);
    const admin = await signIn(t, (await makeUser(t.ctx, { isAdmin: true })).id);
    for (const { method, url } of adminRoutes) {
      const call = {
        method: method as 'GET',
        url: url.replace(/:(\w+)/g, '1'),
        payload: method === 'GET' ? undefined : {},
      };
      expect((await t.client().request(call)).statusCode, `${method} ${url} visitor`).toBe(401);
      expect((await user.request(call)).statusCode, `${method} ${url} user`).toBe(403);
      if (method === 'GET' && !url.includes(':'))
        expect((await admin.request(call)).statusCode, `${method} ${url} admin`).toBe(200);
    }
  });
});
