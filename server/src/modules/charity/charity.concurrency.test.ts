import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DonationLink } from '../../../../common/api/charity';
import { MAX_PENDING_LINKS } from '../../../../common/charity';
import { rows } from '../../db/connection';
import { checkConservation } from '../../ledger/conservation';
import { availableBalance } from '../../ledger/ledger';
import { missingRealServices, realPostgresUrl } from '../../test/databases';
import { makeUser, signIn } from '../../test/factories';
import { startTestApp, type TestApp } from '../../test/harness';

const GREEN = { host: 'green.example', origin: 'http://green.example' };

/* Decisions under real concurrency, on PostgreSQL with its pool: the link's row lock decides who decides. */
describe.skipIf(missingRealServices({ postgres: true }))('donation links under concurrent calls (PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ postgresUrl: realPostgresUrl });
  });
  afterAll(() => t.close());

  async function pendingLink() {
    const user = await makeUser(t.ctx);
    const res = await (await signIn(t, user.id)).post('/api/charity-link/send', { link: 'give.example.org/x' }, GREEN);
    expect(res.statusCode, res.body).toBe(200);
    return { userId: user.id, link: res.json<DonationLink>() };
  }
  const approval = (id: number) => ({
    charityLinkId: id,
    amount: 2500,
    charityName: 'Red Cross',
    adminCategory: 'Health',
    isPubliclyVisible: true,
  });
  const notes = async (userId: number) =>
    (
      await rows<{ n: number }>(
        t.ctx.db,
        sql`SELECT count(*)::int AS n FROM notification_events WHERE user_id = ${userId}`,
      )
    )[0]!.n;
  const credits = async (linkId: number) =>
    (
      await rows<{ n: number }>(
        t.ctx.db,
        sql`SELECT count(*)::int AS n FROM journal_entries WHERE kind = 'CHARITY_CREDIT' AND resource_id = ${String(linkId)}`,
      )
    )[0]!.n;

  it('10 parallel approvals of one link by two admins: one credit, one notification, nine 409s', async () => {
    const { userId, link } = await pendingLink();
    const admins = await Promise.all([0, 1].map(async () => signIn(t, (await makeUser(t.ctx, { isAdmin: true })).id)));
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => admins[i % 2]!.post('/api/admin/charity/approve', approval(link.id))),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([200, ...Array(9).fill(409)]);
    expect(await availableBalance(t.ctx.db, userId)).toBe(2500);
    expect(await credits(link.id)).toBe(1);
    expect(await notes(userId)).toBe(1);
    expect(await checkConservation(t.ctx.db)).toMatchObject({ ok: true });
  });

  it('approvals racing rejections of one link: exactly one decision wins, money only if it was an approval', async () => {
    const { userId, link } = await pendingLink();
    const admin = await signIn(t, (await makeUser(t.ctx, { isAdmin: true })).id);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        i % 2
          ? admin.post('/api/admin/charity/approve', approval(link.id))
          : admin.post('/api/admin/charity/reject', { ...approval(link.id), amount: undefined, reason: 'No.' }),
      ),
    );
    const winners = answers.filter((a) => a.statusCode === 200);
    expect(winners).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(9);
    const won = winners[0]!.json<DonationLink>();
    expect(await availableBalance(t.ctx.db, userId)).toBe(won.approved ? 2500 : 0);
    expect(await credits(link.id)).toBe(won.approved ? 1 : 0);
    expect(await notes(userId)).toBe(1);
    expect(await checkConservation(t.ctx.db)).toMatchObject({ ok: true });
  });

  it('the same Idempotency-Key sent 10 times at once: one credit, ten identical 200 answers', async () => {
    const { userId, link } = await pendingLink();
    const admin = await signIn(t, (await makeUser(t.ctx, { isAdmin: true })).id);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        admin.post('/api/admin/charity/approve', approval(link.id), { 'idempotency-key': `same-${link.id}` }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(await availableBalance(t.ctx.db, userId)).toBe(2500);
    expect(await credits(link.id)).toBe(1);
    expect(await checkConservation(t.ctx.db)).toMatchObject({ ok: true });
  });

  it('parallel sends by one user stop at the pending limit', async () => {
    const user = await makeUser(t.ctx);
    const client = await signIn(t, user.id);
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) => client.post('/api/charity-link/send', { link: `example.org/${i}` }, GREEN)),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(MAX_PENDING_LINKS);
    expect(answers.filter((a) => a.statusCode === 400)).toHaveLength(25 - MAX_PENDING_LINKS);
  });
});
