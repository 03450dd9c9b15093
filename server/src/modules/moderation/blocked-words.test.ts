import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlRows } from '../../db/connection';
import { checkConservation } from '../../ledger/conservation';
import { giveItems, makeUser, signIn } from '../../test/factories';
import { startTestApp, type TestApp, type TestClient } from '../../test/harness';
import { makePicture } from '../pictures/test-helpers';

/*
 * Blocked words (docs/product.md#blocks): the admin's list, stored trimmed, lower-case and once; a comment, reply,
 * chat message or nickname with one, case-insensitively and as a whole word, answers 400 and charges nothing.
 */

let t: TestApp;
let admin: TestClient;
beforeAll(async () => {
  t = await startTestApp();
  admin = await signIn(t, (await makeUser(t.ctx, { isAdmin: true })).id);
});
afterAll(() => t.close());

const setWords = (words: string[]) =>
  admin.request({ method: 'PUT', url: '/api/admin/blocked-words', payload: { words } });

async function writer(): Promise<{ id: number; client: TestClient }> {
  const user = await makeUser(t.ctx, { balance: 5_000 });
  for (const l of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') await giveItems(t.ctx, user.id, `COMMON_LETTER_${l}`, 1);
  return { id: user.id, client: await signIn(t, user.id) };
}

/** What a refused call could have changed. */
const books = async () =>
  sqlRows(
    t.ctx.db,
    sql<Record<string, unknown>>`SELECT (SELECT json_agg(a ORDER BY a.code) FROM ledger_accounts a) AS accounts,
       (SELECT count(*)::int FROM journal_entries) AS entries,
       (SELECT count(*)::int FROM comments) AS comments,
       (SELECT count(*)::int FROM chat_messages) AS chat,
       (SELECT json_agg(json_build_array(id, username) ORDER BY id) FROM users) AS names`,
  );

describe('GET and PUT /api/admin/blocked-words', () => {
  it('keeps the list trimmed, lower-case and once per word, for administrators only', async () => {
    expect((await admin.get('/api/admin/blocked-words')).json()).toEqual({ words: [] });
    const put = await setWords([' Spam ', 'SPAM', 'Éclair', '   ']);
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json<{ words: string[] }>().words.sort()).toEqual(['spam', 'éclair'].sort());
    expect((await admin.get('/api/admin/blocked-words')).json<{ words: string[] }>().words.sort()).toEqual(
      ['spam', 'éclair'].sort(),
    );

    const user = await writer();
    expect((await user.client.get('/api/admin/blocked-words')).statusCode).toBe(403);
    expect(
      (await user.client.request({ method: 'PUT', url: '/api/admin/blocked-words', payload: { words: [] } }))
        .statusCode,
    ).toBe(403);
    expect((await t.client().get('/api/admin/blocked-words')).statusCode).toBe(401);
    expect((await setWords(['x'.repeat(101)])).statusCode).toBe(400);
    expect((await admin.get('/api/admin/blocked-words')).json<{ words: string[] }>().words).toHaveLength(2);
    await setWords([]);
  });
});

describe('text with a blocked word', () => {
  it('is refused with 400 on its field before anything is charged: comment, reply, chat, nickname', async () => {
    await setWords(['spam']);
    const user = await writer();
    const author = await makeUser(t.ctx, { balance: 1_000 });
    const picture = await makePicture(t.ctx, author.id, 100);
    const parent = await user.client.post('/api/picture/comment', { pictureId: picture, comment: 'FIRST' });
    expect(parent.statusCode, parent.body).toBe(200);
    const before = await books();

    const refusals: [string, Record<string, unknown>, string][] = [
      ['/api/picture/comment', { pictureId: picture, comment: 'BUY SPAM' }, 'comment'],
      [
        '/api/picture/comment',
        { pictureId: picture, comment: 'Spam', responseTo: parent.json<{ id: number }>().id },
        'comment',
      ],
      ['/api/user/message', { message: 'SPAM HERE', sendAmount: 1_000 }, 'message'],
      ['/api/auth/set-nickname', { nickname: 'spam_king' }, 'nickname'],
    ];
    for (const [url, body, field] of refusals) {
      const res = await user.client.post(url, body);
      expect(res.statusCode, `${url} ${res.body}`).toBe(400);
      expect(res.json(), url).toEqual([{ field, errorText: '"spam" is not allowed here. Please reword.' }]);
    }
    const signUp = await t.client().post('/api/auth/register', {
      username: 'spam_bot',
      password: 'secret123',
      email: 'spam@example.test',
    });
    expect(signUp.statusCode).toBe(400);
    expect(signUp.json()[0].field).toBe('username');
    expect(await books()).toEqual(before);
    expect((await checkConservation(t.ctx.db)).ok).toBe(true);

    // A whole word only: inside a longer word it is no match.
    const longer = await user.client.post('/api/picture/comment', { pictureId: picture, comment: 'SPAMMER' });
    expect(longer.statusCode, longer.body).toBe(200);
    // The list emptied, the same text goes through at once on this instance.
    await setWords([]);
    const again = await user.client.post('/api/user/message', { message: 'SPAM HERE', sendAmount: 1_000 });
    expect(again.statusCode, again.body).toBe(200);
    expect((await checkConservation(t.ctx.db)).ok).toBe(true);
  });
});
