import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Comment } from '../../../../common/api/comments';
import { sqlRows } from '../../db/connection';
import { checkConservation } from '../../ledger/conservation';
import { availableBalance } from '../../ledger/ledger';
import { missingRealServices, realPostgresUrl } from '../../test/databases';
import { giveItems, makeUser, signIn } from '../../test/factories';
import { startTestApp, type TestApp } from '../../test/harness';
import { makePicture } from '../pictures/test-helpers';

/*
 * Decisions under real concurrency, on PostgreSQL with its pool (docs/product.md#moderation): the content's one
 * decision is its unique index, so of admins deciding at once one decides, and only that one refunds and suspends.
 */
describe.skipIf(missingRealServices({ postgres: true }))('moderation decisions at once (PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ postgresUrl: realPostgresUrl });
  });
  afterAll(() => t.close());

  const count = async (query: ReturnType<typeof sql<{ n: number }>>) => (await sqlRows(t.ctx.db, query))[0]!.n;

  it('two admins deciding one comment at once, 10 calls: one decision, one refund, the offers cancelled once', async () => {
    const author = await makeUser(t.ctx, { balance: 5_000 });
    const client = await signIn(t, author.id);
    const pictureId = await makePicture(t.ctx, author.id, 200);
    const made = await client.post('/api/picture/comment', { pictureId, comment: 'Spam spam', balance: 0 });
    expect(made.statusCode, made.body).toBe(200);
    const commentId = made.json<Comment>().id;
    await giveItems(t.ctx, author.id, 'COMMON_LETTER_Q', 1);
    await client.post('/api/market/generic-sell-offer', { itemType: 'COMMON_LETTER_Q', quantity: 1, price: 500 });
    await client.post('/api/market/generic-buy-offer', {
      itemType: 'COMMON_LETTER_W',
      quantity: 2,
      price: 30,
      balance: 0,
    });
    const reporter = await signIn(t, (await makeUser(t.ctx)).id);
    const report = await reporter.post('/api/user/report-message', {
      type: 'COMMENT',
      messageId: commentId,
      reason: 'spam',
      description: 'Spam.',
    });
    const reportId = report.json<{ id: number }>().id;
    const before = await availableBalance(t.ctx.db, author.id);

    const admins = await Promise.all([0, 1].map(async () => signIn(t, (await makeUser(t.ctx, { isAdmin: true })).id)));
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        admins[i % 2]!.post('/api/admin/reports/decide', {
          reportId,
          action: 'remove',
          category: 'spam',
          reasons: 'Spam.',
          suspendDays: 1,
          refund: true,
        }),
      ),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([200, ...Array<number>(9).fill(409)]);
    expect(
      await count(sql`SELECT count(*)::int AS n FROM moderation_decisions WHERE content_id = ${commentId}
          AND content_type = 'COMMENT'`),
    ).toBe(1);
    expect(
      await count(sql`SELECT count(*)::int AS n FROM journal_entries WHERE kind = 'REFUND' AND user_id = ${author.id}`),
    ).toBe(1);
    expect(await count(sql`SELECT count(*)::int AS n FROM market_offers WHERE user_id = ${author.id}`)).toBe(0);
    // The comment's 15¢ back, and the 60¢ the buy offer held.
    expect(await availableBalance(t.ctx.db, author.id)).toBe(before + 15 + 60);
    expect(
      await count(sql`SELECT count(*)::int AS n FROM notification_events WHERE user_id = ${author.id}
          AND topic = 'MODERATION_DECISION'`),
    ).toBe(1);
    expect((await checkConservation(t.ctx.db)).ok).toBe(true);
  });
});
