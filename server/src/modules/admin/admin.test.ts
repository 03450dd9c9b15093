import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spend } from '../../ledger/commands';
import { checkConservation } from '../../ledger/conservation';
import { makeUser, signIn } from '../../test/factories';
import { startTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('GET /api/admin/am-i-worthy', () => {
  it('answers YES to an administrator', async () => {
    const admin = await makeUser(t.ctx, { isAdmin: true });
    const res = await (await signIn(t, admin.id)).get('/api/admin/am-i-worthy');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'YES' });
  });

  it('answers 403 NO to a signed-in user who is not an administrator', async () => {
    const user = await makeUser(t.ctx);
    const res = await (await signIn(t, user.id)).get('/api/admin/am-i-worthy');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'NO' });
  });

  it('answers 401 to a visitor who is not signed in', async () => {
    const res = await t.client().get('/api/admin/am-i-worthy');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Sign in first.' });
  });

  it('stops answering YES once the rights are revoked', async () => {
    const admin = await makeUser(t.ctx, { isAdmin: true });
    const client = await signIn(t, admin.id);
    expect((await client.get('/api/admin/am-i-worthy')).statusCode).toBe(200);
    await t.ctx.db.execute(sql`UPDATE users SET is_admin = false WHERE id = ${admin.id}`);
    expect((await client.get('/api/admin/am-i-worthy')).statusCode).toBe(403);
  });
});

describe('GET /api/admin/ledger-check', () => {
  it('shows an administrator balanced books after money moved', async () => {
    const spender = await makeUser(t.ctx, { balance: 500 });
    await t.ctx.transact((w) => spend(w, { userId: spender.id, amount: 15, kind: 'COMMENT' }));
    const admin = await makeUser(t.ctx, { isAdmin: true });

    const res = await (await signIn(t, admin.id)).get('/api/admin/ledger-check');
    expect(res.statusCode).toBe(200);
    const report = res.json();
    expect(report).toMatchObject({
      ok: true,
      postingsTotal: 0,
      unbalancedEntries: 0,
      negativeBalances: 0,
      driftedAccounts: 0,
    });
    expect(report.userMoney).toBe((await checkConservation(t.ctx.db)).userMoney);
    expect(report.userMoney).toBeGreaterThanOrEqual(485);
    expect((await checkConservation(t.ctx.db)).ok).toBe(true);
  });

  it('refuses non-administrators with 403 and visitors with 401', async () => {
    const user = await makeUser(t.ctx);
    expect((await (await signIn(t, user.id)).get('/api/admin/ledger-check')).statusCode).toBe(403);
    expect((await t.client().get('/api/admin/ledger-check')).statusCode).toBe(401);
  });
});
