import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOODWILL_TYPES } from '../../../common/constants';
import { goodwillShare, spenderCause } from '../../../common/goodwill';
import { audience, liveEvent, type LiveEvent } from '../../../common/live';
import { sqlRows } from '../db/connection';
import { oneCaller } from '../db/one-call';
import type { WorkDeps } from '../db/unit-of-work';
import { makeUser } from '../test/factories';
import { PATIENT_DATABASE, startTestApp, type TestApp } from '../test/harness';
import { mulberry32 } from '../test/random';
import { creditTopUp, spend, spendAlone, type SpendInput } from './commands';
import { checkConservation } from './conservation';
import { account, availableBalance, InsufficientFunds, post, type PostResult } from './ledger';

/*
 * The database's `ledger_spend` and `ledger_post` (migration 0019) against the rules they implement: every random
 * spend's postings are what common/goodwill.ts says (goodwillShare to the cause spenderCause names, the rest to
 * revenue), a spend one cent short is refused with the exact missing amount and writes nothing, racing spends never
 * take a balance below zero, and the books balance. Spends go both ways a feature or the benchmark sends them: inside
 * a larger transaction (`spend`) and as a transaction of their own in one round trip (`spendAlone`).
 */

let t: TestApp;
let deps: WorkDeps;
const sent: LiveEvent[] = [];
beforeAll(async () => {
  // 200 spends at once race for one balance: they wait for the pool (PATIENT_DATABASE) rather than answer 503.
  t = await startTestApp({ config: PATIENT_DATABASE });
  deps = { db: t.ctx.db, bus: { send: async (e) => void sent.push(e) } };
});
afterAll(() => t.close());

/** A spend one way or the other. */
function spendVia(alone: boolean, input: SpendInput): Promise<PostResult> {
  return alone ? spendAlone(oneCaller(deps), input) : t.ctx.transact((w) => spend(w, input));
}

async function counts(): Promise<{ entries: number; postings: number }> {
  const [row] = await sqlRows(
    t.ctx.db,
    sql<{ entries: number; postings: number }>`SELECT (SELECT count(*) FROM journal_entries)::int AS entries,
        (SELECT count(*) FROM postings)::int AS postings`,
  );
  return row!;
}

async function postingsOf(entryId: number): Promise<{ account: string; amount: number }[]> {
  const rows = await sqlRows(
    t.ctx.db,
    sql<{ account: string; amount: number }>`SELECT account_code AS account, amount FROM postings
        WHERE entry_id = ${entryId} ORDER BY id`,
  );
  return rows.map((r) => ({ account: r.account, amount: Number(r.amount) }));
}

/** What common/goodwill.ts says a spend of `amount` by a user whose cause column reads `cause` posts. */
function rule(userId: number, amount: number, cause: string | null): { account: string; amount: number }[] {
  const share = goodwillShare(amount);
  return [
    { account: account.available(userId), amount: -amount },
    { account: account.revenue, amount: amount - share },
    ...(share > 0 ? [{ account: account.goodwillPayable(spenderCause(cause)), amount: share }] : []),
  ];
}

describe('ledger_spend', () => {
  it('posts every random spend as common/goodwill.ts says, refuses one cent short with nothing written', async () => {
    const seed = Number(process.env.LEDGER_SPEND_SEED ?? Date.now() % 1_000_000);
    console.log(`ledger spend seed ${seed} (rerun with LEDGER_SPEND_SEED=${seed})`);
    const random = mulberry32(seed);
    const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
    // Every cause, no cause yet, and a value that is no cause (the default cause is paid for both).
    const causes: (string | null)[] = [...GOODWILL_TYPES, null, 'NOT_A_CAUSE'];
    const users: { id: number; cause: string | null }[] = [];
    for (const cause of causes) {
      const u = await makeUser(t.ctx, { balance: int(1, 2_000) });
      await t.ctx.db.execute(sql`UPDATE users SET good_will = ${cause} WHERE id = ${u.id}`);
      users.push({ id: u.id, cause });
    }

    const seen = { inside: 0, alone: 0, short: 0, odd: 0, oneCent: 0 };
    for (let n = 0; n < 200; n++) {
      const u = users[int(0, users.length - 1)]!;
      const balance = await availableBalance(t.ctx.db, u.id);
      const short = random() < 0.2 || balance === 0;
      const amount = short ? balance + 1 : random() < 0.1 ? 1 : int(1, Math.min(balance, 300));
      const alone = random() < 0.5;
      const resourceId = random() < 0.3 ? `it's \\ #${n}` : null;
      const memo = random() < 0.3 ? { note: `o'k \\ ${n}`, n } : undefined;
      const input: SpendInput = { userId: u.id, amount, kind: 'TEST', resourceId, memo };
      const before = await counts();
      if (short) {
        const err = await spendVia(alone, input).catch((e: unknown) => e);
        expect(err, JSON.stringify(input)).toBeInstanceOf(InsufficientFunds);
        expect((err as InsufficientFunds).missing).toBe(1);
        expect(await availableBalance(t.ctx.db, u.id)).toBe(balance);
        expect(await counts()).toEqual(before);
        seen.short++;
        continue;
      }
      const { entryId, balances } = await spendVia(alone, input);
      expect(balances).toEqual(new Map([[account.available(u.id), balance - amount]]));
      expect(await availableBalance(t.ctx.db, u.id)).toBe(balance - amount);
      expect(await postingsOf(entryId), JSON.stringify(input)).toEqual(rule(u.id, amount, u.cause));
      const [entry] = await sqlRows(
        t.ctx.db,
        sql<{ kind: string; user_id: number; resource_id: string | null; memo: unknown }>`SELECT kind, user_id,
            resource_id, memo FROM journal_entries WHERE id = ${entryId}`,
      );
      expect(entry).toEqual({ kind: 'TEST', user_id: u.id, resource_id: resourceId, memo: memo ?? null });
      seen[alone ? 'alone' : 'inside']++;
      if (amount % 2 === 1) seen.odd++;
      if (amount === 1) seen.oneCent++;
      // Some money back now and then, so that the users do not all run dry.
      if (random() < 0.15) {
        await t.ctx.transact((w) =>
          post(w, {
            kind: 'TOPUP',
            userId: u.id,
            postings: [
              { account: account.externalCard, amount: -500 },
              { account: account.available(u.id), amount: 500 },
            ],
          }),
        );
      }
    }
    console.log(`ledger spend: ${JSON.stringify(seen)}`);
    expect(Math.min(...Object.values(seen))).toBeGreaterThan(0);
    expect(await checkConservation(t.ctx.db)).toMatchObject({ ok: true, postingsTotal: 0 });
  });

  it('never takes a balance below zero when 200 spends of 7 cents race, alone and inside, for 1000 cents', async () => {
    const u = await makeUser(t.ctx, { balance: 1000 });
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) => spendVia(i % 2 === 0, { userId: u.id, amount: 7, kind: 'TEST' })),
    );
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    const refused = results.filter((r) => r.status === 'rejected' && r.reason instanceof InsufficientFunds);
    expect(ok).toBe(142);
    expect(refused.length).toBe(58);
    for (const r of refused) expect(((r as PromiseRejectedResult).reason as InsufficientFunds).missing).toBe(1);
    expect(await availableBalance(t.ctx.db, u.id)).toBe(6);
    expect(await checkConservation(t.ctx.db)).toMatchObject({ ok: true, postingsTotal: 0 });
  });

  it("answers each of one user's spends at once on its own, though they go to the database together", async () => {
    const u = await makeUser(t.ctx, { balance: 20 });
    const other = await makeUser(t.ctx, { balance: 20 });
    const before = await counts();
    sent.length = 0;
    const results = await Promise.allSettled([
      ...[7, 7, 7, 3, 0.5, 2].map((amount) => spendAlone(oneCaller(deps), { userId: u.id, amount, kind: 'TEST' })),
      spendAlone(oneCaller(deps), { userId: other.id, amount: 20, kind: 'TEST' }),
    ]);
    const outcome = results.map((r) =>
      r.status === 'fulfilled'
        ? r.value.balances.get(account.available(r.value.balances.has(account.available(u.id)) ? u.id : other.id))
        : r.reason instanceof InsufficientFunds
          ? `missing ${r.reason.missing}`
          : 'error',
    );
    // In the order they came: 20 → 13 → 6, the third 1 short, then 3 and 2 fit; a half cent is no amount at all.
    expect(outcome).toEqual([13, 6, 'missing 1', 3, 'error', 1, 0]);
    expect(await counts()).toEqual({ entries: before.entries + 5, postings: before.postings + 15 });
    expect(sent.filter((e) => e.ch === 'balance').length).toBe(5);
    expect(await checkConservation(t.ctx.db)).toMatchObject({ ok: true, postingsTotal: 0 });
  });

  it('announces the new balance of a spend alone after its commit, and nothing for a refused one', async () => {
    const u = await makeUser(t.ctx, { balance: 20 });
    sent.length = 0;
    await spendAlone(oneCaller(deps), { userId: u.id, amount: 15, kind: 'COMMENT' });
    await expect(spendAlone(oneCaller(deps), { userId: u.id, amount: 15, kind: 'COMMENT' })).rejects.toMatchObject({
      missing: 10,
    });
    expect(sent).toEqual([liveEvent('balance', 'update', { value: 5 }, audience.user(u.id))]);
  });
});

describe('ledger_post', () => {
  it('moves nothing when a later user account of the entry is short, even if the caller goes on', async () => {
    // Two debits: the account first in code order has enough and moves, the second is short, the first goes back.
    const [rich, poor] = [(await makeUser(t.ctx)).id, (await makeUser(t.ctx)).id].sort((a, b) =>
      account.available(a) < account.available(b) ? -1 : 1,
    ) as [number, number];
    await t.ctx.transact((w) => creditTopUp(w, rich, 100, `test-rich-${rich}`));
    await t.ctx.transact((w) => creditTopUp(w, poor, 4, `test-poor-${poor}`));
    const before = await counts();
    const answer = await t.ctx.transact(async (w) => {
      const err = await post(w, {
        kind: 'TEST',
        userId: null,
        postings: [
          { account: account.available(rich), amount: -5 },
          { account: account.available(poor), amount: -5 },
          { account: account.revenue, amount: 10 },
        ],
      }).catch((e: unknown) => e);
      return err;
    });
    expect(answer).toBeInstanceOf(InsufficientFunds);
    expect((answer as InsufficientFunds).missing).toBe(1);
    expect(await availableBalance(t.ctx.db, rich)).toBe(100);
    expect(await availableBalance(t.ctx.db, poor)).toBe(4);
    expect(await counts()).toEqual(before);
    expect(await checkConservation(t.ctx.db)).toMatchObject({ ok: true, postingsTotal: 0 });
  });

  it('refuses an entry that does not balance, in the database too', async () => {
    const u = await makeUser(t.ctx, { balance: 10 });
    const err = await t.ctx.db
      .execute(
        sql`SELECT ledger_post('TEST', NULL, NULL, NULL, ARRAY[${account.available(u.id)}, 'platform:revenue'],
            ARRAY[-5, 4]::bigint[])`,
      )
      .catch((e: Error) => e);
    // drizzle wraps the database's error: its own message is the cause's.
    expect(String((err as Error & { cause?: Error }).cause?.message)).toMatch(/not a balanced entry/);
    expect(await availableBalance(t.ctx.db, u.id)).toBe(10);
  });
});
