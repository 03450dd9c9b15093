import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Comment } from '../../../../common/api/comments';
import { sqlRows } from '../../db/connection';
import { checkConservation } from '../../ledger/conservation';
import { availableBalance } from '../../ledger/ledger';
import { missingRealServices, realPostgresUrl } from '../../test/databases';
import { giveItems, makeUser, signIn } from '../../test/factories';
import { startTestApp, type TestApp } from '../../test/harness';
import { holdMembership, holdSuspension } from '../../http/membership';
import { placeBuyOffer } from '../market/market.commands';
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
  /** Another user reports the comment as spam; answers the report's id. */
  async function reportAsSpam(commentId: number): Promise<number> {
    const reporter = await signIn(t, (await makeUser(t.ctx)).id);
    const report = await reporter.post('/api/user/report-message', {
      type: 'COMMENT',
      messageId: commentId,
      reason: 'spam',
      description: 'Spam.',
    });
    return report.json<{ id: number }>().id;
  }

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
    const reportId = await reportAsSpam(commentId);
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

  it("a suspension waits for the author's order in flight and cancels it; the author's next call is refused", async () => {
    const author = await makeUser(t.ctx, { balance: 5_000 });
    const client = await signIn(t, author.id);
    const pictureId = await makePicture(t.ctx, author.id, 200);
    const made = await client.post('/api/picture/comment', { pictureId, comment: 'Spam again', balance: 0 });
    const commentId = made.json<Comment>().id;
    const before = await availableBalance(t.ctx.db, author.id);
    const reportId = await reportAsSpam(commentId);
    const admin = await signIn(t, (await makeUser(t.ctx, { isAdmin: true })).id);

    // A member's buy offer as its route runs it, held open between its order and its commit.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let placed!: () => void;
    const inOrder = new Promise<void>((resolve) => (placed = resolve));
    const order = t.ctx.transact(async (work) => {
      await holdMembership(work, author.id, t.ctx.now());
      const o = { userId: author.id, itemType: 'COMMON_LETTER_V', quantity: 2, price: 25 };
      await placeBuyOffer(work, { now: t.ctx.now(), feeBps: t.ctx.config.marketFeeBps }, o);
      placed();
      await gate;
    });
    await inOrder;
    let decided = false;
    const decision = admin
      .post('/api/admin/reports/decide', {
        reportId,
        action: 'remove',
        category: 'spam',
        reasons: 'Spam.',
        suspendDays: 1,
      })
      .finally(() => (decided = true));
    await new Promise((r) => setTimeout(r, 500));
    expect(decided).toBe(false); // it waits for the order in flight
    release();
    await order;
    expect((await decision).statusCode).toBe(200);

    expect(await count(sql`SELECT count(*)::int AS n FROM market_offers WHERE user_id = ${author.id}`)).toBe(0);
    expect(await availableBalance(t.ctx.db, author.id)).toBe(before); // the escrow came back
    const after = await client.post(
      '/api/market/generic-buy-offer',
      { itemType: 'COMMON_LETTER_V', quantity: 1, price: 25, balance: 0 },
      { 'idempotency-key': 'after-the-suspension' },
    );
    expect(after.statusCode).toBe(403);
    expect((await checkConservation(t.ctx.db)).ok).toBe(true);
  });

  /*
   * A member's call that passed the door (the session read as the request began) while a suspension was being
   * written: with an Idempotency-Key it runs in a unit of work (holdMembership); without one, in one round trip
   * (`asMember`, migration 0025). Either way it waits for the suspension and is refused once it commits.
   */
  const doorCalls = [
    {
      what: 'a buy offer',
      path: '/api/market/generic-buy-offer',
      body: { itemType: 'COMMON_LETTER_V', quantity: 1, price: 25, balance: 0 },
    },
    { what: 'a lootbox opening', path: '/api/open/lootbox', body: {} },
  ];
  it.each(doorCalls.flatMap((c) => [true, false].map((keyed) => ({ ...c, keyed }))))(
    '$what (Idempotency-Key: $keyed) that passed the door as a suspension was being written is refused once it commits',
    async ({ path, body, keyed }) => {
      const author = await makeUser(t.ctx, { balance: 5_000 });
      await t.ctx.db.execute(sql`UPDATE users SET key_count = 1, loot_box_count = 1 WHERE id = ${author.id}`);
      const client = await signIn(t, author.id);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let held!: () => void;
      const holding = new Promise<void>((resolve) => (held = resolve));
      const suspension = t.ctx.transact(async (work) => {
        await holdSuspension(work, author.id);
        await work.tx.execute(sql`UPDATE users SET suspended_for_good = true WHERE id = ${author.id}`);
        held();
        await gate;
      });
      await holding;
      const call = client.post(path, body, keyed ? { 'idempotency-key': `at-the-door-${author.id}` } : {});
      await new Promise((r) => setTimeout(r, 300));
      release();
      await suspension;
      const answer = await call;
      expect(answer.statusCode).toBe(403);
      expect(answer.json()).toMatchObject({ suspendedUntil: null });
      expect(await count(sql`SELECT count(*)::int AS n FROM market_offers WHERE user_id = ${author.id}`)).toBe(0);
      const [left] = await sqlRows<{ keys: number; boxes: number }>(
        t.ctx.db,
        sql`SELECT key_count AS keys, loot_box_count AS boxes FROM users WHERE id = ${author.id}`,
      );
      expect(left).toEqual({ keys: 1, boxes: 1 });
      expect(await availableBalance(t.ctx.db, author.id)).toBe(5_000);
    },
  );
});
