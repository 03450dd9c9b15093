import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GoodWillType, type GoodWillPayment, type GoodWillTotals } from '../../../../common/api/goodwill';
import { GOODWILL_TYPES, type GoodWillType as Cause } from '../../../../common/constants';
import { GOODWILL_CSV_HEADER, GOODWILL_REFERENCE } from '../../../../common/goodwill';
import { sqlRows } from '../../db/connection';
import { goodwillJob } from '../../jobs/goodwill.job';
import { JOBS } from '../../jobs/jobs';
import { runJob } from '../../jobs/runner';
import { checkConservation } from '../../ledger/conservation';
import { forwardGoodwill } from '../../ledger/goodwill';
import { missingRealServices, realPostgresUrl } from '../../test/databases';
import { makeUser, signIn } from '../../test/factories';
import { startTestApp, type TestApp, type TestClient } from '../../test/harness';
import { makePicture } from '../pictures/test-helpers';

const execFileAsync = promisify(execFile);

/** The clock of the app: tests move it to a next month to make the monthly forwarding due. */
let clock = new Date();
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ now: () => clock });
});
afterAll(() => t.close());

const booksBalance = async () => expect(await checkConservation(t.ctx.db)).toMatchObject({ ok: true });

async function user(balance = 10_000): Promise<{ id: number; client: TestClient }> {
  const u = await makeUser(t.ctx, { balance });
  return { id: u.id, client: await signIn(t, u.id) };
}

const choose = (c: TestClient, goodWill: unknown) => c.post('/api/user/good-will', { goodWill });
const payments = async (c: TestClient, query = '') => {
  const res = await c.get(`/api/user/good-will/payments${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<GoodWillPayment[]>();
};
/** Per cause: cents waiting in its payable account and cents forwarded, from the ledger. */
async function balances(): Promise<Map<string, { payable: number; forwarded: number }>> {
  const found = await sqlRows(
    t.ctx.db,
    sql<{
      cause: string;
      kind: string;
      total: number;
    }>`SELECT a.cause, a.kind, coalesce(sum(p.amount), 0)::bigint AS total FROM ledger_accounts a
        LEFT JOIN postings p ON p.account_code = a.code WHERE a.kind LIKE 'goodwill_%' GROUP BY a.cause, a.kind`,
  );
  const out = new Map<string, { payable: number; forwarded: number }>();
  for (const r of found) {
    const e = out.get(r.cause) ?? { payable: 0, forwarded: 0 };
    if (r.kind === 'goodwill_payable') e.payable = Number(r.total);
    else e.forwarded = Number(r.total);
    out.set(r.cause, e);
  }
  return out;
}
const batches = () =>
  sqlRows(
    t.ctx.db,
    sql<{
      id: number;
      cause: string;
      amount: number;
      reference: string;
      entry_id: number;
    }>`SELECT id, cause, amount::bigint AS amount, reference, entry_id FROM goodwill_batches ORDER BY id`,
  );

describe('the chosen cause', () => {
  it('is the default until chosen, then the chosen one; the API offers exactly the six causes', async () => {
    expect(GoodWillType.anyOf.map((s) => (s as { const: string }).const)).toEqual([...GOODWILL_TYPES]);
    const u = await user();
    expect((await u.client.get('/api/user/good-will')).json()).toEqual({ value: 'OPEN_SOURCE' });
    const res = await choose(u.client, 'SCIENCE');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ value: 'SCIENCE' });
    expect((await u.client.get('/api/user/good-will')).json()).toEqual({ value: 'SCIENCE' });
  });

  it('answers 400 to anything but one of the six causes, and changes nothing', async () => {
    const u = await user();
    await choose(u.client, 'POLITICS');
    for (const bad of ['CATS', 'science', '', 1, null, undefined]) {
      const res = await choose(u.client, bad);
      expect(res.statusCode, String(bad)).toBe(400);
    }
    expect((await u.client.post('/api/user/good-will', {})).statusCode).toBe(400);
    expect((await u.client.get('/api/user/good-will')).json()).toEqual({ value: 'POLITICS' });
  });

  it('answers 401 when logged out', async () => {
    const c = t.client();
    expect((await c.get('/api/user/good-will')).statusCode).toBe(401);
    expect((await choose(c, 'SCIENCE')).statusCode).toBe(401);
    expect((await c.get('/api/user/good-will/payments')).statusCode).toBe(401);
  });
});

describe('shares and their forwarding', () => {
  it('records half of each spend, rounded down, for the cause chosen at that moment', async () => {
    const u = await user();
    await makePicture(t.ctx, u.id, 101); // default cause: 50
    await choose(u.client, 'ENVIRONMENTAL');
    await makePicture(t.ctx, u.id, 250); // 125
    await makePicture(t.ctx, u.id, 1); // a 1¢ spend has no share
    await choose(u.client, 'HUMAN_RIGHTS');
    await makePicture(t.ctx, u.id, 333); // 166
    const list = await payments(u.client);
    expect(list.map((p) => [p.amount, p.goodWillType, p.status, p.reference])).toEqual([
      [166, 'HUMAN_RIGHTS', 'PENDING', null],
      [125, 'ENVIRONMENTAL', 'PENDING', null],
      [50, 'OPEN_SOURCE', 'PENDING', null],
    ]);
    expect(list.every((p) => !Number.isNaN(Date.parse(p.paidOn)))).toBe(true);
    // Pages: newest first, `beforeId` goes back.
    const first = await payments(u.client, '?limit=2');
    expect(first.map((p) => p.amount)).toEqual([166, 125]);
    expect((await payments(u.client, `?limit=2&beforeId=${first[1]!.id}`)).map((p) => p.amount)).toEqual([50]);
    expect((await u.client.get('/api/user/good-will/payments?limit=1000')).statusCode).toBe(400);
    // Another user sees none of them.
    expect(await payments((await user()).client)).toEqual([]);
    await booksBalance();
  });

  it('the monthly job forwards what was paid before this month as one batch per cause, once', async () => {
    const u = await user();
    await choose(u.client, 'SCIENCE');
    await makePicture(t.ctx, u.id, 400);
    await makePicture(t.ctx, u.id, 201);
    // Still this month: nothing paid before its first day is left, so nothing moves.
    const before = await balances();
    expect(await runJob(t.ctx, goodwillJob)).toBe(true);
    expect(await batches()).toEqual([]);

    // A month later: every share so far is due.
    clock = new Date(Date.UTC(clock.getUTCFullYear(), clock.getUTCMonth() + 1, 1, 0, 5));
    expect(await runJob(t.ctx, goodwillJob)).toBe(true);
    await signIn(t, u.id, u.client); // the first session ran out with the month
    const moved = await batches();
    const pendingBefore = [...before].filter(([, b]) => b.payable > 0);
    expect(moved.map((b) => b.cause).sort()).toEqual(pendingBefore.map(([c]) => c).sort());
    for (const b of moved) {
      expect(Number(b.amount)).toBe(before.get(b.cause)!.payable);
      expect(b.reference).toBe(`${GOODWILL_REFERENCE}-${clock.toISOString().slice(0, 7).replace('-', '')}-${b.id}`);
      expect(b.entry_id).toBeGreaterThan(0);
    }
    const after = await balances();
    for (const [cause, b] of after) {
      expect(b.payable, cause).toBe(0);
      expect(b.forwarded, cause).toBe(before.get(cause)!.forwarded + before.get(cause)!.payable);
    }
    await booksBalance();

    // The user's shares now read FORWARDED with their batch's reference.
    const science = moved.find((b) => b.cause === 'SCIENCE')!;
    expect((await payments(u.client)).map((p) => [p.amount, p.status, p.reference])).toEqual([
      [100, 'FORWARDED', science.reference],
      [200, 'FORWARDED', science.reference],
    ]);

    // Run again (and again through the command): nothing is forwarded twice.
    expect(await runJob(t.ctx, goodwillJob)).toBe(true);
    expect(await t.ctx.transact((w) => forwardGoodwill(w, { now: clock }))).toEqual([]);
    expect(await batches()).toEqual(moved);
    await booksBalance();

    // A spend after the month's start waits for the next month; the command forwards it at once. (The entries' time
    // is the database's clock: back to the real month, whose earlier shares are all forwarded by now.)
    clock = new Date();
    await signIn(t, u.id, u.client);
    await makePicture(t.ctx, u.id, 90);
    expect(await runJob(t.ctx, goodwillJob)).toBe(true);
    expect((await payments(u.client))[0]).toMatchObject({ amount: 45, status: 'PENDING', reference: null });
    const now = await t.ctx.transact((w) => forwardGoodwill(w, { now: clock }));
    expect(now.map((b) => [b.cause, b.amount])).toEqual([['SCIENCE', 45]]);
    expect((await payments(u.client))[0]).toMatchObject({ status: 'FORWARDED', reference: now[0]!.reference });
    await booksBalance();
  });

  it('the conservation check finds a batch that does not prove out against its shares and its entry', async () => {
    const u = await user();
    await makePicture(t.ctx, u.id, 300);
    const [batch] = await t.ctx.transact((w) => forwardGoodwill(w, { now: clock }));
    expect((await checkConservation(t.ctx.db)).goodwillMismatches).toBe(0);
    const tampered = async (change: ReturnType<typeof sql>) => {
      let found = 0;
      const rollback = new Error('rollback');
      await t.ctx
        .transact(async (w) => {
          await w.tx.execute(change);
          found = (await checkConservation(w.tx)).goodwillMismatches;
          throw rollback;
        })
        .catch((e: unknown) => {
          if (e !== rollback) throw e;
        });
      return found;
    };
    // A batch claiming more than its shares and its entry moved (the batch, and its cause's forwarded account against
    // its batches); a share taken out of its batch; a forwarded account moved without a batch.
    expect(await tampered(sql`UPDATE goodwill_batches SET amount = amount + 1 WHERE id = ${batch!.id}`)).toBe(2);
    expect(await tampered(sql`DELETE FROM goodwill_shares WHERE batch_id = ${batch!.id}`)).toBe(1);
    expect(
      await tampered(sql`UPDATE postings SET account_code = 'goodwill:SCIENCE:forwarded'
                         WHERE entry_id = ${batch!.entryId} AND account_code LIKE '%:forwarded'`),
    ).toBeGreaterThan(0);
    await booksBalance();
  });

  it('is one of the periodic jobs, with a lock of its own', () => {
    expect(JOBS).toContain(goodwillJob);
    expect(new Set(JOBS.map((j) => j.lock)).size).toBe(JOBS.length);
  });
});

describe('the public proof', () => {
  it('downloads goodwill_payments.csv: one row per batch', async () => {
    const res = await t.client().get('/api/good-will/payments');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe('attachment; filename="goodwill_payments.csv"');
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe(GOODWILL_CSV_HEADER);
    const all = await batches();
    expect(lines.length).toBe(all.length + 1);
    const [first] = all;
    expect(lines[1]).toMatch(new RegExp(`^${first!.id},${first!.cause},${Number(first!.amount)},`));
    expect(lines[1]!.endsWith(`,${first!.reference}`)).toBe(true);
  });

  it('answers each cause paid in, pending and forwarded, consistent with the ledger', async () => {
    const res = await t.client().get('/api/good-will/totals');
    expect(res.statusCode).toBe(200);
    const { causes } = res.json<GoodWillTotals>();
    expect(causes.map((c) => c.cause)).toEqual([...GOODWILL_TYPES]);
    const ledger = await balances();
    for (const c of causes) {
      const b = ledger.get(c.cause as Cause)!;
      expect(c.pending).toBe(b.payable);
      expect(c.forwarded).toBe(b.forwarded);
      expect(c.paidIn).toBe(b.payable + b.forwarded);
    }
  });
});

describe.skipIf(missingRealServices({ postgres: true }))('forwarding on PostgreSQL', () => {
  let pgApp: TestApp;
  beforeAll(async () => {
    // Fifty transactions at once queue for the pool's connections behind the forwardings' lock: on two cores shared
    // with other CI jobs the last ones waited more than the default 3 s for a connection.
    pgApp = await startTestApp({ postgresUrl: realPostgresUrl, config: { dbConnectTimeoutMs: 30_000 } });
  });
  afterAll(() => pgApp.close());

  it('forwards once when two connections run it at the same moment', async () => {
    const spenders = await Promise.all(Array.from({ length: 4 }, () => makeUser(pgApp.ctx, { balance: 10_000 })));
    for (const [i, s] of spenders.entries()) {
      await pgApp.ctx.db.execute(sql`UPDATE users SET good_will = ${GOODWILL_TYPES[i % 2]} WHERE id = ${s.id}`);
      await makePicture(pgApp.ctx, s.id, 100 + i);
    }
    const payable = 50 + 50 + 51 + 51; // 100/2, 101/2, 102/2, 103/2 rounded down
    const now = new Date();
    const runs = await Promise.all(
      Array.from({ length: 2 }, () => pgApp.ctx.transact((w) => forwardGoodwill(w, { now }))),
    );
    const forwarded = runs.flat();
    expect(forwarded.reduce((n, b) => n + b.amount, 0)).toBe(payable);
    expect(runs.filter((r) => r.length > 0)).toHaveLength(1);
    const [row] = await sqlRows(
      pgApp.ctx.db,
      sql<{
        n: number;
        total: number;
      }>`SELECT count(*)::int AS n, coalesce(sum(amount), 0)::bigint AS total FROM goodwill_batches`,
    );
    expect(row).toEqual({ n: 2, total: payable });
    // The job on another instance, while this one forwards: it skips, or runs after and finds nothing.
    expect(await pgApp.ctx.transact((w) => forwardGoodwill(w, { now }))).toEqual([]);
    expect(await checkConservation(pgApp.ctx.db)).toMatchObject({ ok: true });
  });

  it('npm run admin -- forward-goodwill forwards from another process, and then finds nothing', async () => {
    const spender = await makeUser(pgApp.ctx, { balance: 10_000 });
    await makePicture(pgApp.ctx, spender.id, 500);
    // The app's own database, directly too when it is pooled: the run's DATABASE_DIRECT_URL names the base database.
    const { DATABASE_DIRECT_URL: _base, ...env } = process.env;
    const direct = pgApp.config.databaseDirectUrl;
    const cli = (args: string[]) =>
      execFileAsync(process.execPath, ['--import', 'tsx', 'server/src/admin/cli.ts', ...args], {
        env: { ...env, DATABASE_URL: pgApp.config.databaseUrl, ...(direct ? { DATABASE_DIRECT_URL: direct } : {}) },
      });
    const first = await cli(['forward-goodwill']);
    expect(first.stdout).toMatch(new RegExp(`^${GOODWILL_REFERENCE}-\\d{6}-\\d+: OPEN_SOURCE 2\\.50$`, 'm'));
    expect((await cli(['forward-goodwill'])).stdout.trim()).toBe('Nothing to forward.');
    expect(await checkConservation(pgApp.ctx.db)).toMatchObject({ ok: true });
  });

  it('stays exact when spends commit while forwardings run: each batch is the sum of the shares it covers', async () => {
    const spenders = await Promise.all(Array.from({ length: 6 }, () => makeUser(pgApp.ctx, { balance: 100_000 })));
    const now = new Date();
    const spends = spenders.flatMap((s, i) =>
      Array.from({ length: 8 }, (_, k) => makePicture(pgApp.ctx, s.id, 3 + i + k)),
    );
    const forwards = Array.from({ length: 5 }, () => pgApp.ctx.transact((w) => forwardGoodwill(w, { now })));
    await Promise.all([...spends, ...forwards]);
    // The conservation check proves every batch against the shares it covers and the entry that moved it.
    expect(await checkConservation(pgApp.ctx.db)).toMatchObject({ ok: true, goodwillMismatches: 0 });
    // What is left is forwarded by one more run, and then nothing is payable.
    await pgApp.ctx.transact((w) => forwardGoodwill(w, { now }));
    const [left] = await sqlRows(
      pgApp.ctx.db,
      sql<{ payable: number }>`SELECT coalesce(sum(p.amount), 0)::bigint AS payable FROM postings p
          JOIN ledger_accounts a ON a.code = p.account_code WHERE a.kind = 'goodwill_payable'`,
    );
    expect(Number(left!.payable)).toBe(0);
    expect(await checkConservation(pgApp.ctx.db)).toMatchObject({ ok: true });
  });
});
