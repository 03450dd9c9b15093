import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Comment } from '../../../../common/api/comments';
import type { ChatMessage } from '../../../../common/api/chat';
import type { AdminAppeal, DecideReportAnswer, ModerationLog, UserDecision } from '../../../../common/api/moderation';
import type { AdminReport } from '../../../../common/api/admin';
import type { Notification } from '../../../../common/api/notifications';
import type { LiveEvent } from '../../../../common/live';
import type { TransactionRow, TransactionSummary } from '../../../../common/api/transactions';
import { sqlRows, type Columns } from '../../db/connection';
import type { users } from '../../db/core.tables';
import { checkConservation } from '../../ledger/conservation';
import { availableBalance } from '../../ledger/ledger';
import { giveItems, makeUser, signIn } from '../../test/factories';
import { startTestApp, type TestApp, type TestClient } from '../../test/harness';
import type { chatMessages } from '../chat/chat.tables';
import { imageOf, jpegPart, makePicture, upload } from '../pictures/test-helpers';

let t: TestApp;
let admin: TestClient;
let otherAdmin: TestClient;

beforeAll(async () => {
  t = await startTestApp();
  admin = await signIn(t, (await makeUser(t.ctx, { isAdmin: true })).id);
  otherAdmin = await signIn(t, (await makeUser(t.ctx, { isAdmin: true })).id);
});
afterAll(() => t.close());

interface Person {
  id: number;
  username: string;
  client: TestClient;
}

async function person(balance = 10_000): Promise<Person> {
  const u = await makeUser(t.ctx, { balance });
  return { ...u, client: await signIn(t, u.id) };
}

/** An author's picture with their comment on it, and a reply to the comment by someone else who owns letters. */
async function thread() {
  const author = await person();
  const pictureId = await makePicture(t.ctx, author.id, 300);
  const made = await author.client.post('/api/picture/comment', {
    pictureId,
    comment: 'Buy at example.com',
    balance: 0,
  });
  expect(made.statusCode, made.body).toBe(200);
  const commentId = made.json<Comment>().id;
  const replier = await person();
  for (const l of 'OK') await giveItems(t.ctx, replier.id, `COMMON_LETTER_${l}`, 1);
  const reply = await replier.client.post('/api/picture/comment', {
    pictureId,
    comment: 'ok',
    responseTo: commentId,
    balance: 0,
  });
  expect(reply.statusCode, reply.body).toBe(200);
  return { author, pictureId, commentId, replyId: reply.json<Comment>().id, replier };
}

async function report(by: Person, type: 'COMMENT' | 'CHAT' | 'PICTURE', messageId: number): Promise<number> {
  const res = await by.client.post('/api/user/report-message', { type, messageId, reason: 'spam', description: 'x' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ id: number }>().id;
}

const decide = (c: TestClient, body: Record<string, unknown>, key?: string) =>
  c.post(
    '/api/admin/reports/decide',
    { action: 'remove', category: 'spam', reasons: 'Advertising is not allowed here.', ...body },
    key ? { 'idempotency-key': key } : undefined,
  );

const notifications = async (c: TestClient) => (await c.get('/api/user-notifications')).json<Notification[]>();
const ok = async () => expect((await checkConservation(t.ctx.db)).ok).toBe(true);
const decisionCount = async () =>
  (await sqlRows(t.ctx.db, sql<{ n: number }>`SELECT count(*)::int AS n FROM moderation_decisions`))[0]!.n;

describe('deciding reports', () => {
  it('removes a comment with its replies: gone from the list, 404 on its routes, everyone told', async () => {
    const { author, pictureId, commentId, replyId, replier } = await thread();
    const reporters = [await person(), await person()];
    const ids = [await report(reporters[0]!, 'COMMENT', commentId), await report(reporters[1]!, 'COMMENT', commentId)];

    const res = await decide(admin, { reportId: ids[1] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<DecideReportAnswer>()).toEqual({
      decisionId: expect.any(Number),
      action: 'remove',
      contentType: 'COMMENT',
      contentId: commentId,
      reports: ids,
    });

    const listed = (await t.client().get(`/api/picture/comment/${pictureId}`)).json<Comment[]>();
    expect(JSON.stringify(listed)).not.toContain('example.com');
    expect(listed.map((c) => c.id)).not.toContain(commentId);
    expect((await t.client().get(`/api/picture/comment-reactions/${commentId}`)).statusCode).toBe(404);
    expect((await t.client().get(`/api/picture/comment-reactions/${replyId}`)).statusCode).toBe(404);
    const replyAgain = await replier.client.post('/api/picture/comment', {
      pictureId,
      comment: 'ok',
      responseTo: commentId,
      balance: 0,
    });
    expect(replyAgain.statusCode).toBe(400);
    const picture = (await t.client().get(`/api/pictures/${pictureId}`)).json<{ commentCount: number }>();
    expect(picture.commentCount).toBe(0);

    // The author: the decision, its category and reasons, and how to appeal; a mail too.
    const [told] = (await notifications(author.client)).filter((n) => n.b.topic === 'MODERATION_DECISION');
    expect(told?.message).toContain('removed your comment');
    expect(told?.message).toContain('Spam');
    expect(told?.message).toContain('Advertising is not allowed here.');
    expect(told?.message).toContain('appeal');
    const mail = t.mailer.sent.find((m) => m.to === `${author.username}@example.test`);
    expect(mail?.text).toContain('Advertising is not allowed here.');
    // Each reporter: the outcome, without the author's name.
    for (const r of reporters) {
      const [outcome] = (await notifications(r.client)).filter((n) => n.b.topic === 'REPORT_OUTCOME');
      expect(outcome?.message).toContain('was removed');
      expect(JSON.stringify(outcome)).not.toContain(author.username);
      expect(outcome?.username).toBeNull();
    }
    // The admin console shows both reports decided.
    const admins = (await admin.get('/api/admin/reports')).json<AdminReport[]>();
    for (const id of ids) {
      expect(admins.find((r) => r.id === id)?.decision).toEqual({
        decisionId: res.json<DecideReportAnswer>().decisionId,
        action: 'remove',
        decidedOn: expect.any(String),
      });
    }
    // The picture author's notification about the removed comment is gone from their list.
    expect((await notifications(author.client)).filter((n) => n.commentId === commentId)).toEqual([]);
    await ok();
  });

  it('replays the answer under the same Idempotency-Key; another decision on the content answers 409', async () => {
    const { commentId } = await thread();
    const reportId = await report(await person(), 'COMMENT', commentId);
    const before = await decisionCount();
    const first = await decide(admin, { reportId, action: 'dismiss' }, 'decide-once');
    const again = await decide(admin, { reportId, action: 'dismiss' }, 'decide-once');
    expect(first.statusCode, first.body).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await decisionCount()).toBe(before + 1);
    const second = await decide(otherAdmin, { reportId });
    expect(second.statusCode).toBe(409);
    expect(await decisionCount()).toBe(before + 1);
  });

  it('dismisses: the content stays, the reporter hears it was kept, the author hears nothing', async () => {
    const { author, pictureId, commentId } = await thread();
    const reporter = await person();
    const reportId = await report(reporter, 'COMMENT', commentId);
    const res = await decide(admin, { reportId, action: 'dismiss', category: 'other' });
    expect(res.statusCode, res.body).toBe(200);
    const listed = (await t.client().get(`/api/picture/comment/${pictureId}`)).json<Comment[]>();
    expect(listed.map((c) => c.id)).toContain(commentId);
    expect((await notifications(reporter.client)).map((n) => n.message)).toContain(
      'Thank you for your report of a comment: a moderator reviewed it and the comment was kept.',
    );
    expect((await notifications(author.client)).filter((n) => n.b.topic === 'MODERATION_DECISION')).toEqual([]);
    expect((await author.client.get('/api/user/moderation')).json()).toEqual([]);
    // A dismissal suspends and refunds nobody.
    const { commentId: other } = await thread();
    const id2 = await report(reporter, 'COMMENT', other);
    expect((await decide(admin, { reportId: id2, action: 'dismiss', suspendDays: 1 })).statusCode).toBe(400);
    expect((await decide(admin, { reportId: id2, action: 'dismiss', refund: true })).statusCode).toBe(400);
  });

  it('answers 401 to a visitor, 403 to a user, 404 for no report, 400 without reasons; decides nothing', async () => {
    const { commentId } = await thread();
    const reporter = await person();
    const reportId = await report(reporter, 'COMMENT', commentId);
    const before = await decisionCount();
    expect((await decide(t.client(), { reportId })).statusCode).toBe(401);
    expect((await decide(reporter.client, { reportId })).statusCode).toBe(403);
    expect((await decide(admin, { reportId: 987_654_321 })).statusCode).toBe(404);
    expect((await decide(admin, { reportId, reasons: '' })).statusCode).toBe(400);
    expect((await decide(admin, { reportId, reasons: ' \n ' })).statusCode).toBe(400);
    expect((await decide(admin, { reportId, category: 'rude' })).statusCode).toBe(400);
    expect(await decisionCount()).toBe(before);
  });

  it('removes a chat message from the last 50', async () => {
    const sender = await person();
    const [chat] = await sqlRows(
      t.ctx.db,
      sql<
        Columns<typeof chatMessages, 'id'>
      >`INSERT INTO chat_messages (sender_id, body, cost, unit_price) VALUES (${sender.id}, 'rude words', 5, 5) RETURNING id`,
    );
    const reportId = await report(await person(), 'CHAT', chat!.id);
    const last = async () => (await t.client().get('/api/last-50-messages')).json<ChatMessage[]>();
    expect(JSON.stringify(await last())).toContain('rude words');
    const res = await decide(admin, { reportId, category: 'personal-abuse' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<DecideReportAnswer>().contentType).toBe('CHAT');
    expect(JSON.stringify(await last())).not.toContain('rude words');
  });

  it('removes a picture with a refund: off the wall and 404, a REFUND row, the statement says "removed"', async () => {
    const author = await person(5_000);
    const pictureId = await makePicture(t.ctx, author.id, 700);
    await author.client.post('/api/payment/checkout-with-image-fund', { imageId: pictureId, amount: 100 });
    const fan = await person();
    await fan.client.post('/api/payment/checkout-with-image-fund', { imageId: pictureId, amount: 50 });
    const reportId = await report(await person(), 'PICTURE', pictureId);
    const titled = (await admin.get('/api/admin/reports')).json<AdminReport[]>().find((r) => r.id === reportId);
    expect(titled?.messageText).toBe('');
    const balance = await availableBalance(t.ctx.db, author.id);

    const res = await decide(admin, { reportId, refund: true, category: 'illegal-content' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await t.client().get(`/api/pictures/${pictureId}`)).statusCode).toBe(404);
    for (const sort of ['top', 'trending', 'new']) {
      const wall = await t.client().get(`/api/pictures?sort=${sort}&limit=100`);
      if (wall.statusCode === 200) expect(wall.json<{ id: number }[]>().map((p) => p.id)).not.toContain(pictureId);
    }
    const profile = await t.client().get(`/api/pictures?sort=profile&authorId=${author.id}`);
    expect(profile.json<{ id: number }[]>()).toEqual([]);
    expect(
      (await fan.client.post('/api/payment/checkout-with-image-fund', { imageId: pictureId, amount: 1 })).statusCode,
    ).toBe(404);

    // The author's own spend (upload and funding) comes back; the fan's payment stays in the books.
    expect(await availableBalance(t.ctx.db, author.id)).toBe(balance + 800);
    const summary = (await author.client.get('/api/user-transactions')).json<TransactionSummary>();
    expect(summary.REFUND).toBe(800);
    const refunds = (await author.client.get('/api/user-transactions/REFUND')).json<TransactionRow[]>();
    expect(refunds).toEqual([expect.objectContaining({ payAmount: 800, resourcePreview: 'Refund: removed picture' })]);
    const images = (await author.client.get('/api/user-transactions/IMAGE')).json<TransactionRow[]>();
    expect(images.map((r) => r.resourcePreview)).toEqual(['removed', 'removed']);
    const csv = (await author.client.get('/api/user-transactions.csv')).body;
    expect(csv).toMatch(/,REFUND,800,\d+,Refund: removed picture/);
    const sums = Object.entries(summary)
      .filter(([k]) => k !== 'held')
      .reduce((a, [, v]) => a + v, 0);
    expect(sums).toBe((await availableBalance(t.ctx.db, author.id)) + summary.held);
    const decisions = (await author.client.get('/api/user/moderation')).json<UserDecision[]>();
    expect(decisions[0]).toMatchObject({ contentType: 'PICTURE', contentId: pictureId, refunded: 800, appeal: null });
    await ok();
  });

  it("withholds a removed picture's file and face while no other picture shows the same file", async () => {
    const [a, b] = [await person(), await person()];
    const file = jpegPart(await imageOf(640, 480));
    const made = [await upload(a.client, 100, file), await upload(b.client, 100, file)];
    for (const m of made) expect(m.statusCode, m.body).toBe(200);
    const [pa, pb] = await Promise.all(
      made.map(async (m) =>
        (await t.client().get(`/api/pictures/${m.json<{ url: string }>().url.split('/').pop()}`)).json<{
          id: number;
          url: string;
        }>(),
      ),
    );
    expect(pa!.url).toBe(pb!.url); // one file, named by its content
    const setFace = await a.client.request({ method: 'PUT', url: `/api/user/profile?imageId=${pa!.id}` });
    expect(setFace.statusCode, setFace.body).toBe(200);
    const other = await makePicture(t.ctx, a.id, 50);
    const faceOf = async () =>
      (await t.client().get(`/api/pictures/${other}`)).json<{ authorProfileUrl: string | null }>().authorProfileUrl;
    // The face is the picture's file, or its narrowest variant (`<hash>-<width>.webp`).
    const face = await faceOf();
    expect(face?.startsWith(pa!.url.replace(/\.jpg$/, ''))).toBe(true);

    expect((await decide(admin, { reportId: await report(b, 'PICTURE', pa!.id) })).statusCode).toBe(200);
    expect(await faceOf()).toBeNull();
    expect((await t.client().get(pa!.url)).statusCode).toBe(200); // b's picture still shows the file
    expect((await decide(admin, { reportId: await report(a, 'PICTURE', pb!.id) })).statusCode).toBe(200);
    expect((await t.client().get(pb!.url)).statusCode).toBe(404);
    expect((await t.client().get(face!)).statusCode).toBe(404);
    await ok();
  });

  it('settles the unread notifications about removed content: the bell does not count what no list shows', async () => {
    const { author, pictureId, commentId } = await thread();
    const fan = await person();
    await fan.client.post('/api/payment/checkout-with-image-fund', { imageId: pictureId, amount: 20 });
    const unread = async () =>
      (await author.client.get('/api/user-notifications/unread-count')).json<{ value: number }>().value;
    const before = await unread();
    expect(before).toBeGreaterThan(0);
    const about = (await notifications(author.client)).filter(
      (n) => n.pictureId === pictureId || n.commentId === commentId,
    );
    expect(about.length).toBeGreaterThan(0);

    expect((await decide(admin, { reportId: await report(fan, 'PICTURE', pictureId) })).statusCode).toBe(200);
    // The bell counts what the list shows: the moderator's notice, not the events about the picture.
    expect(await unread()).toBe((await notifications(author.client)).filter((n) => !n.b.seen).length);
    expect((await notifications(author.client)).filter((n) => n.pictureId === pictureId)).toEqual([]);
  });

  it('suspends the author: the longest suspension wins, open offers are cancelled with the escrow back', async () => {
    const { author, commentId } = await thread();
    const item = 'COMMON_LETTER_Z';
    await giveItems(t.ctx, author.id, item, 2);
    expect(
      (await author.client.post('/api/market/generic-sell-offer', { itemType: item, quantity: 2, price: 900 }))
        .statusCode,
    ).toBe(200);
    const bid = await author.client.post('/api/market/generic-buy-offer', {
      itemType: 'COMMON_LETTER_Y',
      quantity: 3,
      price: 40,
      balance: 0,
    });
    expect(bid.statusCode, bid.body).toBe(200);
    const held = await availableBalance(t.ctx.db, author.id);

    const reportId = await report(await person(), 'COMMENT', commentId);
    const seen: LiveEvent[] = [];
    const off = t.ctx.bus.subscribe((e) => (e.ch === 'moderation' || e.t === 'suspension') && seen.push(e));
    const res = await decide(admin, { reportId, suspendDays: 7 });
    expect(res.statusCode, res.body).toBe(200);
    await new Promise((r) => setTimeout(r, 20));
    off();
    // Everyone on the moderation channel drops the comment; the author's sockets hear of the suspension.
    expect(seen).toEqual([
      { ch: 'moderation', t: 'contentRemoved', m: { contentType: 'COMMENT', contentId: commentId } },
      {
        ch: 'notification',
        t: 'suspension',
        m: { suspended: true, suspendedUntil: expect.any(String) },
        userId: author.id,
      },
    ]);
    const offers = await sqlRows(
      t.ctx.db,
      sql<{ n: number }>`SELECT count(*)::int AS n FROM market_offers WHERE user_id = ${author.id}`,
    );
    expect(offers[0]!.n).toBe(0);
    expect(await availableBalance(t.ctx.db, author.id)).toBe(held + 120);
    const suspended = async () =>
      (
        await sqlRows(
          t.ctx.db,
          sql<
            Columns<typeof users, 'suspended_until' | 'suspended_for_good'>
          >`SELECT suspended_until, suspended_for_good FROM users WHERE id = ${author.id}`,
        )
      )[0]!;
    const week = new Date((await suspended()).suspended_until!).getTime() - Date.now();
    expect(week).toBeGreaterThan(6.9 * 86_400_000);
    expect(week).toBeLessThan(7.1 * 86_400_000);
    // A shorter one later leaves the longer standing.
    const chatId = (
      await sqlRows(
        t.ctx.db,
        sql<
          Columns<typeof chatMessages, 'id'>
        >`INSERT INTO chat_messages (sender_id, body, cost, unit_price) VALUES (${author.id}, 'again', 5, 5) RETURNING id`,
      )
    )[0]!.id;
    const r2 = await report(await person(), 'CHAT', chatId);
    expect((await decide(admin, { reportId: r2, suspendDays: 1 })).statusCode).toBe(200);
    expect(new Date((await suspended()).suspended_until!).getTime() - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    // Two decisions, two notices: moderation's notices never fold into one (migration 0015).
    const told = (await notifications(author.client)).filter((n) => n.b.topic === 'MODERATION_DECISION');
    expect(told).toHaveLength(2);
    expect(told[0]?.message).toContain('removed your chat message');
    expect(told[1]?.message).toContain('suspended until');
    await ok();
  });
});

describe('appeals and the public log', () => {
  async function removed() {
    const { author, pictureId, commentId } = await thread();
    const reportId = await report(await person(), 'COMMENT', commentId);
    const res = await decide(admin, { reportId, suspendDays: 0, category: 'hate-speech', reasons: 'Slurs.' });
    expect(res.statusCode, res.body).toBe(200);
    return { author, pictureId, commentId, decisionId: res.json<DecideReportAnswer>().decisionId };
  }
  const appeal = (c: TestClient, decisionId: number, text = 'It was a quote.') =>
    c.post('/api/user/moderation/appeal', { decisionId, text });

  it('one appeal by the author only, within 14 days', async () => {
    const { author, decisionId } = await removed();
    const stranger = await person();
    expect((await appeal(stranger.client, decisionId)).statusCode).toBe(404);
    expect((await appeal(t.client(), decisionId)).statusCode).toBe(401);
    expect((await appeal(author.client, decisionId, '   ')).statusCode).toBe(400);
    const first = await appeal(author.client, decisionId);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ status: 'PENDING', text: 'It was a quote.', decidedOn: null });
    expect((await appeal(author.client, decisionId, 'Again')).statusCode).toBe(409);
    const mine = (await author.client.get('/api/user/moderation')).json<UserDecision[]>();
    expect(mine[0]).toMatchObject({
      decisionId,
      action: 'remove',
      category: 'hate-speech',
      reasons: 'Slurs.',
      suspended: true,
      suspendedUntil: null,
      appeal: { status: 'PENDING', text: 'It was a quote.', decidedOn: null },
    });

    const late = await removed();
    await t.ctx.db.execute(
      sql`UPDATE moderation_decisions SET decided_at = now() - interval '15 days' WHERE id = ${late.decisionId}`,
    );
    const refused = await appeal(late.author.client, late.decisionId);
    expect(refused.statusCode).toBe(400);
  });

  it('a reversal by another admin restores the content and lifts the suspension; the log has no names', async () => {
    const { author, pictureId, commentId, decisionId } = await removed();
    expect((await appeal(author.client, decisionId)).statusCode).toBe(200);
    const pending = (await otherAdmin.get('/api/admin/appeals')).json<AdminAppeal[]>();
    expect(pending.find((a) => a.decisionId === decisionId)).toMatchObject({
      appealText: 'It was a quote.',
      contentText: 'Buy at example.com',
      author: { id: author.id, username: author.username },
    });
    const body = { decisionId, outcome: 'reverse', reasons: 'A quote, in context.' };
    // The deciding admin may not decide the appeal while another admin exists.
    const own = await admin.post('/api/admin/appeals/decide', body);
    expect(own.statusCode).toBe(403);
    expect((await author.client.post('/api/admin/appeals/decide', body)).statusCode).toBe(403);
    const seen: LiveEvent[] = [];
    const off = t.ctx.bus.subscribe((e) => (e.ch === 'moderation' || e.t === 'suspension') && seen.push(e));
    const res = await otherAdmin.post('/api/admin/appeals/decide', body);
    expect(res.statusCode, res.body).toBe(200);
    await new Promise((r) => setTimeout(r, 20));
    off();
    expect(seen).toEqual([
      { ch: 'moderation', t: 'contentRestored', m: { contentType: 'COMMENT', contentId: commentId } },
      { ch: 'notification', t: 'suspension', m: { suspended: false, suspendedUntil: null }, userId: author.id },
    ]);
    expect(res.json()).toEqual({ decisionId, status: 'REVERSED' });
    expect((await otherAdmin.post('/api/admin/appeals/decide', body)).statusCode).toBe(409);

    const listed = (await t.client().get(`/api/picture/comment/${pictureId}`)).json<Comment[]>();
    expect(listed.map((c) => c.id)).toContain(commentId);
    const user = await sqlRows(
      t.ctx.db,
      sql<Columns<typeof users, 'suspended_for_good'>>`SELECT suspended_for_good FROM users WHERE id = ${author.id}`,
    );
    expect(user[0]!.suspended_for_good).toBe(false);
    const [told] = (await notifications(author.client)).filter((n) => n.b.topic === 'APPEAL_DECIDED');
    expect(told?.message).toContain('Your appeal was granted');
    const mine = (await author.client.get('/api/user/moderation')).json<UserDecision[]>();
    expect(mine[0]?.appeal).toMatchObject({ status: 'REVERSED', decidedOn: expect.any(String) });

    const log = await t.client().get('/api/moderation-log');
    expect(log.statusCode).toBe(200);
    const page = log.json<ModerationLog>();
    expect(page.entries[0]).toEqual({
      decidedOn: expect.any(String),
      contentType: 'COMMENT',
      category: 'hate-speech',
      action: 'remove',
      suspended: true,
      appeal: 'REVERSED',
    });
    expect(log.body).not.toContain(author.username);
    expect(log.body).not.toContain('Slurs');
    expect(log.body).not.toContain('example.com');
  });

  it('the only admin may decide the appeal of their own decision; an upheld decision stays', async () => {
    const { author, pictureId, commentId, decisionId } = await removed();
    expect((await appeal(author.client, decisionId)).statusCode).toBe(200);
    const demoted = await sqlRows(
      t.ctx.db,
      sql<Columns<typeof users, 'id'>>`UPDATE users SET is_admin = false WHERE is_admin AND id <> (
          SELECT decided_by FROM moderation_decisions WHERE id = ${decisionId}) RETURNING id`,
    );
    try {
      const res = await admin.post('/api/admin/appeals/decide', { decisionId, outcome: 'uphold', reasons: 'Stands.' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ decisionId, status: 'UPHELD' });
    } finally {
      for (const { id } of demoted) await t.ctx.db.execute(sql`UPDATE users SET is_admin = true WHERE id = ${id}`);
    }
    const listed = (await t.client().get(`/api/picture/comment/${pictureId}`)).json<Comment[]>();
    expect(listed.map((c) => c.id)).not.toContain(commentId);
  });

  it('pages the log newest first with a cursor', async () => {
    for (let i = 0; i < 3; i++) await removed();
    const first = (await t.client().get('/api/moderation-log')).json<ModerationLog>();
    expect(first.entries.length).toBeGreaterThan(0);
    if (first.cursor !== null) {
      const next = (await t.client().get(`/api/moderation-log?cursor=${first.cursor}`)).json<ModerationLog>();
      expect(next.entries.length).toBeGreaterThan(0);
    }
    expect((await t.client().get('/api/moderation-log?cursor=abc')).statusCode).toBe(400);
  });
});
