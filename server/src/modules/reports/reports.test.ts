import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Comment } from '../../../../common/api/comments';
import { REPORT_REASONS } from '../../../../common/reports';
import { sqlRows, type Columns } from '../../db/connection';
import type { chatMessages } from '../chat/chat.tables';
import { makeUser, signIn } from '../../test/factories';
import { startTestApp, type TestApp, type TestClient } from '../../test/harness';
import { makePicture } from '../pictures/test-helpers';
import { listReports } from './reports.service';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** A comment by a picture's author (who may write anything on it) and a chat message, both to report. */
async function messages(): Promise<{ commentId: number; chatId: number }> {
  const author = await makeUser(t.ctx, { balance: 1_000 });
  const pictureId = await makePicture(t.ctx, author.id, 100);
  const made = await (
    await signIn(t, author.id)
  ).post('/api/picture/comment', { pictureId, comment: 'Buy cheap stuff at example.com!', balance: 0 });
  const [chat] = await sqlRows(
    t.ctx.db,
    sql<
      Columns<typeof chatMessages, 'id'>
    >`INSERT INTO chat_messages (sender_id, body, cost, unit_price) VALUES (${author.id}, 'spam spam spam', 5, 5) RETURNING id`,
  );
  return { commentId: made.json<Comment>().id, chatId: chat!.id };
}

async function reporter(): Promise<{ id: number; client: TestClient }> {
  const user = await makeUser(t.ctx);
  return { id: user.id, client: await signIn(t, user.id) };
}

const report = (c: TestClient, body: Record<string, unknown>) => c.post('/api/user/report-message', body);
const count = async () => (await sqlRows(t.ctx.db, sql<{ n: number }>`SELECT count(*)::int AS n FROM reports`))[0]!.n;

describe('reporting a message', () => {
  it('stores a report of a comment and of a chat message, listed newest first for the admin console', async () => {
    const { commentId, chatId } = await messages();
    const u = await reporter();
    const first = await report(u.client, {
      messageId: commentId,
      type: 'COMMENT',
      reason: 'advertisement',
      description: 'An ad.',
    });
    expect(first.statusCode, first.body).toBe(200);
    const second = await report(u.client, { messageId: chatId, type: 'CHAT', reason: 'spam', description: 'Spam.' });
    expect(second.statusCode, second.body).toBe(200);
    const listed = await listReports(t.ctx.db);
    expect(listed.slice(0, 2)).toEqual([
      expect.objectContaining({
        id: second.json().id,
        type: 'CHAT',
        messageId: chatId,
        reason: 'spam',
        description: 'Spam.',
        reporter: { id: u.id, username: expect.any(String) },
        messageText: 'spam spam spam',
      }),
      expect.objectContaining({
        id: first.json().id,
        type: 'COMMENT',
        messageId: commentId,
        reason: 'advertisement',
        messageText: 'Buy cheap stuff at example.com!',
      }),
    ]);
    expect(await listReports(t.ctx.db, { limit: 1, beforeId: second.json().id })).toEqual([listed[1]]);
  });

  it('takes every category of docs/product.md#reports', async () => {
    const { commentId } = await messages();
    for (const { value } of REPORT_REASONS) {
      const u = await reporter();
      const res = await report(u.client, { messageId: commentId, type: 'COMMENT', reason: value, description: 'x' });
      expect(res.statusCode, value).toBe(200);
    }
  });

  it('one report per user and message: the second answers 409 and stores nothing', async () => {
    const { commentId } = await messages();
    const u = await reporter();
    const body = { messageId: commentId, type: 'COMMENT', reason: 'spam', description: 'Spam.' };
    expect((await report(u.client, body)).statusCode).toBe(200);
    const before = await count();
    const again = await report(u.client, { ...body, reason: 'other', description: 'Again.' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: 'You already reported this message.' });
    expect(await count()).toBe(before);
    // Another user may report it too.
    expect((await report((await reporter()).client, body)).statusCode).toBe(200);
  });

  it('a picture too: reported once, the second answers 409', async () => {
    const author = await makeUser(t.ctx, { balance: 1_000 });
    const pictureId = await makePicture(t.ctx, author.id, 100);
    const u = await reporter();
    const body = { messageId: pictureId, type: 'PICTURE', reason: 'hate-speech', description: 'Hateful.' };
    expect((await report(u.client, body)).statusCode).toBe(200);
    const before = await count();
    expect((await report(u.client, body)).statusCode).toBe(409);
    expect(await count()).toBe(before);
    expect((await report(u.client, { ...body, messageId: 987_654_321 })).statusCode).toBe(404);
  });

  it('answers 404 for a message that does not exist, of either type', async () => {
    const u = await reporter();
    const before = await count();
    for (const type of ['COMMENT', 'CHAT']) {
      const res = await report(u.client, { messageId: 987_654_321, type, reason: 'spam', description: 'x' });
      expect(res.statusCode).toBe(404);
    }
    expect(await count()).toBe(before);
  });

  it('answers 401 to a visitor and 400 to bad input, storing nothing', async () => {
    const { commentId } = await messages();
    const before = await count();
    const good = { messageId: commentId, type: 'COMMENT', reason: 'spam', description: 'Spam.' };
    expect((await report(t.client(), good)).statusCode).toBe(401);
    const u = await reporter();
    for (const [change, field] of [
      [{ reason: 'rude' }, 'reason'],
      [{ reason: undefined }, 'reason'],
      [{ description: '' }, 'description'],
      // Required (docs/product.md#reports): blank is no description (issue 22, item 24).
      [{ description: ' ' }, 'description'],
      [{ description: '\n\t \u00a0' }, 'description'],
      [{ description: 'x'.repeat(1001) }, 'description'],
      [{ type: 'PROFILE' }, 'type'],
      [{ messageId: 'abc' }, 'messageId'],
      [{ messageId: 0 }, 'messageId'],
    ] as const) {
      const res = await report(u.client, { ...good, ...change });
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(res.json()[0].field, JSON.stringify(change)).toBe(field);
    }
    expect(await count()).toBe(before);
    expect((await report(u.client, { ...good, description: 'x'.repeat(1000) })).statusCode).toBe(200);
  });
});

describe('the rate of reports (docs/product.md#reports)', () => {
  it('answers 429 past REPORT_RATE_LIMIT reports a minute per user, storing nothing, and counts each user apart', async () => {
    const limited = await startTestApp({ config: { reportRateLimit: 3 } });
    try {
      const author = await makeUser(limited.ctx, { balance: 1_000 });
      const pictures = [];
      for (let i = 0; i < 5; i++) pictures.push(await makePicture(limited.ctx, author.id, 100));
      const spammer = await signIn(limited, (await makeUser(limited.ctx)).id);
      const body = (id: number) => ({ messageId: id, type: 'PICTURE', reason: 'spam', description: 'x' });
      for (const id of pictures.slice(0, 3)) expect((await report(spammer, body(id))).statusCode).toBe(200);
      const stored = async () =>
        (await sqlRows(limited.ctx.db, sql<{ n: number }>`SELECT count(*)::int AS n FROM reports`))[0]!.n;
      const refused = await report(spammer, body(pictures[3]!));
      expect(refused.statusCode).toBe(429);
      expect(refused.json<{ message: string }>().message).toMatch(/^Too many attempts\. Try again in/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(await stored()).toBe(3);
      const other = await signIn(limited, (await makeUser(limited.ctx)).id);
      expect((await report(other, body(pictures[4]!))).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
