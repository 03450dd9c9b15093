import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlRows } from '../../db/connection';
import { checkConservation } from '../../ledger/conservation';
import { availableBalance } from '../../ledger/ledger';
import { missingRealServices, realPostgresUrl } from '../../test/databases';
import { giveItems, makeUser, signIn } from '../../test/factories';
import { PATIENT_DATABASE, startTestApp, type TestApp } from '../../test/harness';

/* The room under real concurrency, on PostgreSQL with its pool: sends take the room one at a time. */
describe.skipIf(missingRealServices({ postgres: true }))('the chat under concurrent sends (PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ postgresUrl: realPostgresUrl, config: PATIENT_DATABASE });
  });
  afterAll(() => t.close());

  it('100 parallel sends from 10 users, each with its own key and one replay: each charged exactly once', async () => {
    const users = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const u = await makeUser(t.ctx, { balance: 10_000 });
        for (const l of 'HELO') await giveItems(t.ctx, u.id, `COMMON_LETTER_${l}`, 1);
        return { id: u.id, client: await signIn(t, u.id) };
      }),
    );
    const sends = users.flatMap((u, i) => Array.from({ length: 10 }, (_, j) => ({ u, key: `c-${i}-${j}` })));
    // Every send twice with its key (a client retrying), all at once.
    const answers = await Promise.all(
      [...sends, ...sends].map(({ u, key }) =>
        u.client.post(
          '/api/user/message',
          { message: 'hello', sendAmount: 1_000, balance: 0 },
          { 'idempotency-key': key },
        ),
      ),
    );
    expect(answers.map((a) => a.statusCode).filter((c) => c !== 200)).toEqual([]);
    const [count] = await sqlRows(
      t.ctx.db,
      sql<{ n: number; total: number }>`SELECT count(*)::int AS n, sum(cost)::int AS total FROM chat_messages`,
    );
    expect(count!.n).toBe(100);
    const entries = await sqlRows(
      t.ctx.db,
      sql<{ n: number; spent: number }>`SELECT count(*)::int AS n, -sum(p.amount)::int AS spent FROM journal_entries e
          JOIN postings p ON p.entry_id = e.id AND p.account_code LIKE 'user:%'
          WHERE e.kind = 'CHAT_MESSAGE'`,
    );
    expect(entries[0]!.n).toBe(100);
    expect(entries[0]!.spent).toBe(count!.total);
    const balances = await Promise.all(users.map((u) => availableBalance(t.ctx.db, u.id)));
    expect(balances.reduce((a, b) => a + b, 0)).toBe(100_000 - count!.total);
    // The price rose as the room filled: 100 messages within a minute, one step per ten.
    expect((await t.client().get('/api/chat-room/unit-price')).json()).toEqual({ unitPrice: 11 });
    expect(await checkConservation(t.ctx.db)).toMatchObject({ ok: true });
  });
});
