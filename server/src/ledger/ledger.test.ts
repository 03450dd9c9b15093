import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_GOODWILL } from '../../../common/constants';
import { sqlRows } from '../db/connection';
import { PATIENT_DATABASE, startTestApp, type TestApp } from '../test/harness';
import { makeUser } from '../test/factories';
import { account } from './ledger';
import { availableBalance, netPostings, post } from './ledger';
import { spend } from './commands';
import { checkConservation } from './conservation';
import { audience, liveEvent, type LiveEvent } from '../../../common/live';
import { InsufficientFunds } from './ledger';

let t: TestApp;
beforeAll(async () => {
  // 200 spends at once race for one balance: they wait for the pool (PATIENT_DATABASE) rather than answer 503.
  t = await startTestApp({ config: PATIENT_DATABASE });
});
afterAll(() => t.close());

describe('netPostings', () => {
  it('refuses entries that do not sum to zero, fractions and single postings', () => {
    expect(() =>
      netPostings([
        { account: 'a', amount: 5 },
        { account: 'b', amount: -4 },
      ]),
    ).toThrow(/sum to 1/);
    expect(() =>
      netPostings([
        { account: 'a', amount: 0.5 },
        { account: 'b', amount: -0.5 },
      ]),
    ).toThrow(/bad amount/);
    expect(() => netPostings([{ account: 'a', amount: 0 }])).toThrow(/two postings/);
  });
});

describe('spend', () => {
  it('takes the amount from the user, half to their cause and the rest to revenue', async () => {
    const u = await makeUser(t.ctx, { balance: 1000 });
    await t.ctx.db.execute(sql`UPDATE users SET good_will = 'SCIENCE' WHERE id = ${u.id}`);
    const { entryId } = await t.ctx.transact((w) => spend(w, { userId: u.id, amount: 15, kind: 'COMMENT' }));
    expect(await availableBalance(t.ctx.db, u.id)).toBe(985);
    const postings = await sqlRows(
      t.ctx.db,
      sql<{
        account_code: string;
        amount: number;
      }>`SELECT account_code, amount FROM postings WHERE entry_id = ${entryId} ORDER BY amount`,
    );
    expect(postings).toEqual([
      { account_code: account.available(u.id), amount: -15 },
      { account_code: account.goodwillPayable('SCIENCE'), amount: 7 },
      { account_code: account.revenue, amount: 8 },
    ]);
    expect((await checkConservation(t.ctx.db)).ok).toBe(true);
  });

  it('sends the goodwill half to the default cause until the user picks one', async () => {
    const u = await makeUser(t.ctx, { balance: 100 });
    const { entryId } = await t.ctx.transact((w) => spend(w, { userId: u.id, amount: 100, kind: 'COMMENT' }));
    const [goodwill] = await sqlRows(
      t.ctx.db,
      sql<{
        account_code: string;
        amount: number;
      }>`SELECT account_code, amount FROM postings WHERE entry_id = ${entryId} AND account_code LIKE 'goodwill:%'`,
    );
    expect(goodwill).toEqual({ account_code: account.goodwillPayable(DEFAULT_GOODWILL), amount: 50 });
  });

  it('refuses a spend one cent above the balance and says what is missing', async () => {
    const u = await makeUser(t.ctx, { balance: 14 });
    const err = await t.ctx.transact((w) => spend(w, { userId: u.id, amount: 15, kind: 'COMMENT' })).catch((e) => e);
    expect(err).toBeInstanceOf(InsufficientFunds);
    expect((err as InsufficientFunds).missing).toBe(1);
    expect(await availableBalance(t.ctx.db, u.id)).toBe(14);
  });

  it('publishes the new balance only after the transaction commits', async () => {
    const u = await makeUser(t.ctx, { balance: 100 });
    const seen: LiveEvent[] = [];
    const off = t.ctx.bus.subscribe((e) => seen.push(e));
    await t.ctx
      .transact(async (w) => {
        await spend(w, { userId: u.id, amount: 10, kind: 'COMMENT' });
        throw new Error('business rule failed after the spend');
      })
      .catch(() => undefined);
    await t.ctx.transact((w) => spend(w, { userId: u.id, amount: 30, kind: 'COMMENT' }));
    off();
    expect(seen).toEqual([liveEvent('balance', 'update', { value: 70 }, audience.user(u.id))]);
  });

  it('keeps the books balanced when 200 spends of 7 cents race for 1000 cents', async () => {
    const u = await makeUser(t.ctx, { balance: 1000 });
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, () => t.ctx.transact((w) => spend(w, { userId: u.id, amount: 7, kind: 'TEST' }))),
    );
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    const refused = results.filter((r) => r.status === 'rejected' && r.reason instanceof InsufficientFunds).length;
    expect(ok).toBe(142);
    expect(refused).toBe(58);
    expect(await availableBalance(t.ctx.db, u.id)).toBe(6);
    expect(await checkConservation(t.ctx.db)).toMatchObject({ ok: true, postingsTotal: 0 });
  });

  it('never lets a direct posting take a user below zero', async () => {
    const u = await makeUser(t.ctx, { balance: 5 });
    const err = await t.ctx
      .transact((w) =>
        post(w, {
          kind: 'TEST',
          userId: u.id,
          postings: [
            { account: account.available(u.id), amount: -6 },
            { account: account.revenue, amount: 6 },
          ],
        }),
      )
      .catch((e) => e);
    expect(err).toBeInstanceOf(InsufficientFunds);
    expect(await availableBalance(t.ctx.db, u.id)).toBe(5);
  });
});
