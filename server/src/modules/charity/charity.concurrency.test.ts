import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DonationLink } from '../../../../common/api/charity';
import { CHARITY_LINK_TEXT, MAX_PENDING_LINKS } from '../../../../common/charity';
import { sqlRows, type Columns } from '../../db/connection';
import type { charityLinks } from './charity.tables';
import { checkConservation } from '../../ledger/conservation';
import { availableBalance } from '../../ledger/ledger';
import { missingRealServices, realPostgresUrl } from '../../test/databases';
import { makeUser, signIn } from '../../test/factories';
import { PATIENT_DATABASE, startTestApp, type TestApp } from '../../test/harness';

const GREEN = { host: 'green.example', origin: 'http://green.example' };

/* Decisions under real concurrency, on PostgreSQL with its pool: the link's row lock decides who decides. */
describe.skipIf(missingRealServices({ postgres: true }))('donation links under concurrent calls (PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ postgresUrl: realPostgresUrl, config: PATIENT_DATABASE });
  });
  afterAll(() => t.close());

  async function pendingLink() {
    const user = await makeUser(t.ctx);
    const link = `give.example.org/x/${user.id}`;
    const res = await (await signIn(t, user.id)).post('/api/charity-link/send', { link }, GREEN);
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
      await sqlRows(
        t.ctx.db,
        sql<{ n: number }>`SELECT count(*)::int AS n FROM notification_events WHERE user_id = ${userId}`,
      )
    )[0]!.n;
  const credits = async (linkId: number) =>
    (
      await sqlRows(
        t.ctx.db,
        sql<{
          n: number;
        }>`SELECT count(*)::int AS n FROM journal_entries WHERE kind = 'CHARITY_CREDIT' AND resource_id = ${String(linkId)}`,
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

  it('one donation link sent by ten users at once: one stored, nine refused on `link`', async () => {
    const senders = await Promise.all(Array.from({ length: 10 }, async () => signIn(t, (await makeUser(t.ctx)).id)));
    const answers = await Promise.all(
      senders.map((c, i) =>
        c.post('/api/charity-link/send', { link: i % 2 ? 'https://race.example.org/d' : 'race.example.org/d/' }, GREEN),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, ...Array(9).fill(400)]);
    for (const a of answers.filter((x) => x.statusCode === 400)) {
      expect(a.json()).toEqual([{ field: 'link', errorText: CHARITY_LINK_TEXT.taken }]);
    }
  });

  it('two copies stored before the rule, approved at once by two admins: one credit', async () => {
    const senders = [await makeUser(t.ctx), await makeUser(t.ctx)];
    const ids: number[] = [];
    for (const [i, s] of senders.entries()) {
      const [row] = await sqlRows(
        t.ctx.db,
        sql<Columns<typeof charityLinks, 'id'>>`INSERT INTO charity_links (sender_id, link, badge)
            VALUES (${s.id}, ${i ? 'http://www.copies.example.org/d/' : 'https://copies.example.org/d'}, 'OLD') RETURNING id`,
      );
      ids.push(row!.id);
    }
    const admins = await Promise.all([0, 1].map(async () => signIn(t, (await makeUser(t.ctx, { isAdmin: true })).id)));
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(
        ids.map((id, i) => admins[i]!.post('/api/admin/charity/approve', approval(id))),
      );
      const codes = answers.map((a) => a.statusCode).sort();
      expect(codes, `round ${round}`).toEqual(round === 0 ? [200, 409] : [409, 409]);
    }
    const credited = await Promise.all(senders.map((s) => availableBalance(t.ctx.db, s.id)));
    expect(credited.sort()).toEqual([0, 2500]);
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
