import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Comment, CommentAnswer, Reaction } from '../../../../common/api/comments';
import type { LiveEvent } from '../../../../common/live';
import { sqlRows, type Columns } from '../../db/connection';
import type { journalEntries } from '../../db/core.tables';
import type { notificationEvents } from '../notifications/notifications.tables';
import { creditTopUp } from '../../ledger/commands';
import { checkConservation } from '../../ledger/conservation';
import { availableBalance } from '../../ledger/ledger';
import { giveItems, makeUser, signIn } from '../../test/factories';
import { startTestApp, type TestApp, type TestClient } from '../../test/harness';
import { makePicture } from '../pictures/test-helpers';

/* One clock for the file: ordering tests move it; every comment is made at a moment the test chose. */
let clock = Date.parse('2026-03-01T12:00:00Z');
const tick = (ms = 1_000) => (clock += ms);

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ now: () => new Date(clock) });
});
afterAll(() => t.close());

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

interface Someone {
  id: number;
  username: string;
  client: TestClient;
}

/** A signed-in user with a balance, owning the first `letters` letters and these emoji items. */
async function someone(balance: number, letters = 26, emojis: string[] = []): Promise<Someone> {
  const user = await makeUser(t.ctx, { balance });
  const items = [...ALPHABET.slice(0, letters)].map((l) => `COMMON_LETTER_${l}`).concat(emojis);
  for (const item of items) await giveItems(t.ctx, user.id, item, 1);
  return { ...user, client: await signIn(t, user.id) };
}

/** A picture by a new author (who owns no letter) with 1000¢ left to pin with. */
async function picture(): Promise<{ pictureId: number; author: Someone }> {
  const author = await someone(1_100, 0);
  return { pictureId: await makePicture(t.ctx, author.id, 100), author };
}

const comment = (u: Someone, body: Record<string, unknown>, headers?: Record<string, string>) =>
  u.client.post('/api/picture/comment', { balance: 0, ...body }, headers);
const react = (u: Someone, body: Record<string, unknown>, headers?: Record<string, string>) =>
  u.client.post('/api/picture/comment/reaction', { balance: 0, ...body }, headers);
const pin = (u: Someone, commentId: number, headers?: Record<string, string>) =>
  u.client.post('/api/picture/comment/pin', { commentId, balance: 0 }, headers);
const list = async (pictureId: number) => (await t.client().get(`/api/picture/comment/${pictureId}`)).json<Comment[]>();
const balance = (u: Someone) => availableBalance(t.ctx.db, u.id);
const commentCount = async (pictureId: number) =>
  (await sqlRows(t.ctx.db, sql<{ n: number }>`SELECT comment_count AS n FROM pictures WHERE id = ${pictureId}`))[0]!.n;
const booksBalance = async () => expect(await checkConservation(t.ctx.db)).toMatchObject({ ok: true });
const notifications = (userId: number) =>
  sqlRows(
    t.ctx.db,
    sql<
      Columns<typeof notificationEvents, 'topic' | 'actor_id' | 'comment_id' | 'amount' | 'item'>
    >`SELECT topic, actor_id, comment_id, amount, item FROM notification_events WHERE user_id = ${userId} ORDER BY id`,
  );
const entries = (userId: number, kind: string) =>
  sqlRows(
    t.ctx.db,
    sql<
      Columns<typeof journalEntries, 'resource_id'>
    >`SELECT resource_id FROM journal_entries WHERE user_id = ${userId} AND kind = ${kind} ORDER BY id`,
  );
const firstError = (res: { json: () => unknown }) => (res.json() as { field: string; errorText: string }[])[0];

/** Everything a refused call must leave as it was. */
async function state(u: Someone, pictureId: number) {
  const [counts] = await sqlRows(
    t.ctx.db,
    sql<{
      comments: number;
      reactions: number;
      pinned: number;
    }>`SELECT (SELECT count(*) FROM comments)::int AS comments, (SELECT count(*) FROM comment_reactions)::int AS reactions,
               (SELECT count(*) FROM comments WHERE pinned_at IS NOT NULL)::int AS pinned`,
  );
  return { balance: await balance(u), commentCount: await commentCount(pictureId), ...counts };
}

describe('writing a comment', () => {
  it('costs 15¢, counts on the picture, shows in the list and tells the picture author', async () => {
    const { pictureId, author } = await picture();
    const writer = await someone(100);
    const seen: LiveEvent[] = [];
    const off = t.ctx.bus.subscribe((e) => e.ch === 'comment' && seen.push(e));
    const res = await comment(writer, { pictureId, comment: 'Nice shot, friend!' });
    off();
    expect(res.statusCode, res.body).toBe(200);
    // The answer is the comment and the writer's balance after it (docs/decisions.md, issue 23 item 4).
    const { balance: after, ...made } = res.json<CommentAnswer>();
    expect(after).toBe(85);
    expect(made).toMatchObject({
      pictureId,
      responseTo: null,
      comment: 'Nice shot, friend!',
      authorId: writer.id,
      authorName: writer.username,
      isPinned: false,
      reactions: [],
      firstReaction: null,
      secondReaction: null,
      commentResponses: [],
    });
    expect(await balance(writer)).toBe(85);
    expect(await commentCount(pictureId)).toBe(1);
    expect(await list(pictureId)).toEqual([made]);
    expect(await entries(writer.id, 'COMMENT')).toEqual([{ resource_id: String(made.id) }]);
    expect(await notifications(author.id)).toEqual([
      expect.objectContaining({ topic: 'IMAGE_COMMENT', actor_id: writer.id, comment_id: made.id }),
    ]);
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toEqual([expect.objectContaining({ ch: 'comment', t: 'commentCreated', m: made })]);
    await booksBalance();
  });

  it('answers 401 to a visitor and 404 on a picture that does not exist', async () => {
    const { pictureId } = await picture();
    expect((await t.client().post('/api/picture/comment', { pictureId, comment: 'hi', balance: 0 })).statusCode).toBe(
      401,
    );
    const writer = await someone(100);
    const res = await comment(writer, { pictureId: 987_654_321, comment: 'hello' });
    expect(res.statusCode).toBe(404);
    expect(await balance(writer)).toBe(100);
  });

  it('refuses bad input with 400 on the field and changes nothing', async () => {
    const { pictureId } = await picture();
    const writer = await someone(100);
    const before = await state(writer, pictureId);
    for (const [body, field] of [
      [{ pictureId, comment: '' }, 'comment'],
      [{ pictureId, comment: '     ' }, 'comment'],
      [{ pictureId, comment: 'a'.repeat(501) }, 'comment'],
      [{ pictureId, comment: 5 }, 'comment'],
      [{ pictureId: 'abc', comment: 'hello' }, 'pictureId'],
      [{ pictureId: -1, comment: 'hello' }, 'pictureId'],
      [{ pictureId, comment: 'hello', responseTo: 'x' }, 'responseTo'],
    ] as const) {
      const res = await comment(writer, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(firstError(res)!.field, JSON.stringify(body)).toBe(field);
    }
    expect(await state(writer, pictureId)).toEqual(before);
    expect((await comment(writer, { pictureId, comment: 'a'.repeat(500) })).statusCode).toBe(200);
  });

  it('a balance one cent short answers 402 {missing: 1} and changes nothing', async () => {
    const { pictureId, author } = await picture();
    const writer = await someone(14);
    const before = await state(writer, pictureId);
    const res = await comment(writer, { pictureId, comment: 'almost' });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ missing: 1 });
    expect(await state(writer, pictureId)).toEqual(before);
    expect(await notifications(author.id)).toEqual([]);
    await booksBalance();
  });

  it('a replay with the same Idempotency-Key answers the same and charges once', async () => {
    const { pictureId } = await picture();
    const writer = await someone(100);
    const key = { 'idempotency-key': 'comment-replay-1' };
    const first = await comment(writer, { pictureId, comment: 'once only' }, key);
    const again = await comment(writer, { pictureId, comment: 'once only' }, key);
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await balance(writer)).toBe(85);
    expect(await commentCount(pictureId)).toBe(1);
    expect(await list(pictureId)).toHaveLength(1);
    // The same key with another body is refused.
    expect((await comment(writer, { pictureId, comment: 'another' }, key)).statusCode).toBe(400);
    await booksBalance();
  });
});

describe('the writing rules, enforced by the server', () => {
  const cases: [string, number, string[], string, string | null][] = [
    ['an unowned letter', 3, [], 'abd', "You don't own Letter D"],
    ['space with 4 letters', 4, [], 'ab cd', 'At least 5 letters required to write space'],
    ['space with 5 letters', 5, [], 'ab cd', null],
    ['uppercase with 9 letters', 9, [], 'Abc', 'At least 10 letters required to write in uppercase'],
    ['uppercase with 10 letters', 10, [], 'Abc', null],
    ['punctuation with 14 letters', 14, [], 'abc!', 'At least 15 letters required to write !'],
    ['punctuation with 15 letters', 15, [], 'abc, def.', null],
    ['digits with 19 letters', 19, [], 'abc 1', 'At least 20 letters required to write numbers'],
    ['digits with 20 letters', 20, [], 'abc 1', null],
    ['other printable with 25 letters', 25, [], 'a@b', 'You must own all letters to write @'],
    ['other printable with 26 letters', 26, [], 'a@b #1 ~', null],
    ['an unowned emoji', 26, [], 'hi 🔥', "You don't own Fire"],
    ['an owned emoji', 3, ['UNCOMMON_EMOJI_FIRE'], 'a🔥', null],
    ['the heart without its variation selector', 3, ['UNCOMMON_EMOJI_HEART'], 'a❤', null],
    ['a non-catalogue emoji', 26, ['UNCOMMON_EMOJI_HEART', 'UNCOMMON_EMOJI_FIRE'], 'hot ❤️‍🔥', 'No one can write ❤️‍🔥'],
    ['a control character', 26, [], 'a\tb', "You can't write \t"],
  ];
  for (const [what, letters, emojis, text, hint] of cases) {
    it(`${what}: ${hint ?? 'accepted'}`, async () => {
      const { pictureId } = await picture();
      const writer = await someone(100, letters, emojis);
      const res = await comment(writer, { pictureId, comment: text });
      if (hint === null) {
        expect(res.statusCode, res.body).toBe(200);
        expect(await balance(writer)).toBe(85);
      } else {
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual([{ field: 'comment', errorText: hint }]);
        expect(await balance(writer)).toBe(100);
      }
    });
  }

  it('500 emojis are 500 characters', async () => {
    const { pictureId } = await picture();
    const writer = await someone(100, 0, ['UNCOMMON_EMOJI_FIRE']);
    expect((await comment(writer, { pictureId, comment: '🔥'.repeat(500) })).statusCode).toBe(200);
    expect((await comment(writer, { pictureId, comment: '🔥'.repeat(501) })).json()).toEqual([
      { field: 'comment', errorText: 'At most 500 characters' },
    ]);
  });

  it("the picture's author writes with every letter on their own picture, but not with an emoji they lack", async () => {
    const { pictureId, author } = await picture(); // owns no letter at all
    const ok = await comment(author, { pictureId, comment: 'Thanks, All! 100% @you' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await notifications(author.id)).toEqual([]); // one's own comment is no news
    expect((await comment(author, { pictureId, comment: 'hot 🔥' })).json()).toEqual([
      { field: 'comment', errorText: "You don't own Fire" },
    ]);
    // On another author's picture the same user has no letters.
    const other = await picture();
    expect((await comment(author, { pictureId: other.pictureId, comment: 'hi' })).json()).toEqual([
      { field: 'comment', errorText: "You don't own Letter H" },
    ]);
  });
});

describe('replies', () => {
  it('answer a top-level comment: 15¢, counted, listed under it, and the parent author is told', async () => {
    const { pictureId, author } = await picture();
    const first = await someone(100);
    const second = await someone(100);
    const parent = (await comment(first, { pictureId, comment: 'first' })).json<Comment>();
    const seen: LiveEvent[] = [];
    const off = t.ctx.bus.subscribe((e) => e.ch === 'comment' && seen.push(e));
    const res = await comment(second, { pictureId, comment: 'a reply', responseTo: parent.id });
    off();
    expect(res.statusCode, res.body).toBe(200);
    const { balance: after, ...reply } = res.json<CommentAnswer>();
    expect(after).toBe(85);
    expect(reply).toMatchObject({ responseTo: parent.id, comment: 'a reply', commentResponses: [] });
    expect(await balance(second)).toBe(85);
    expect(await commentCount(pictureId)).toBe(2);
    const [listed] = await list(pictureId);
    expect(listed!.commentResponses).toEqual([reply]);
    expect(await notifications(first.id)).toEqual([
      expect.objectContaining({ topic: 'COMMENT_REPLY', actor_id: second.id, comment_id: reply.id }),
    ]);
    expect((await notifications(author.id)).map((n) => n.topic)).toEqual(['IMAGE_COMMENT', 'IMAGE_COMMENT']);
    await new Promise((r) => setTimeout(r, 20));
    // The parent, with its new reply, is what goes out live.
    expect(seen).toEqual([expect.objectContaining({ t: 'commentUpdated', m: listed })]);
    // Replying to oneself tells no one but the picture's author.
    await comment(first, { pictureId, comment: 'me again', responseTo: parent.id });
    expect(await notifications(first.id)).toHaveLength(1);
    await booksBalance();
  });

  it('replies are listed oldest first', async () => {
    const { pictureId } = await picture();
    const u = await someone(1_000);
    const parent = (await comment(u, { pictureId, comment: 'top' })).json<Comment>();
    for (const text of ['one', 'two', 'three']) {
      tick();
      await comment(u, { pictureId, comment: text, responseTo: parent.id });
    }
    expect((await list(pictureId))[0]!.commentResponses.map((r) => r.comment)).toEqual(['one', 'two', 'three']);
  });

  it('refuses a reply to a reply, to another picture, or to nothing: 400 on responseTo, nothing changed', async () => {
    const { pictureId } = await picture();
    const other = await picture();
    const u = await someone(1_000);
    const parent = (await comment(u, { pictureId, comment: 'top' })).json<Comment>();
    const reply = (await comment(u, { pictureId, comment: 'reply', responseTo: parent.id })).json<Comment>();
    const elsewhere = (await comment(u, { pictureId: other.pictureId, comment: 'there' })).json<Comment>();
    const before = await state(u, pictureId);
    for (const responseTo of [reply.id, elsewhere.id, 987_654_321]) {
      const res = await comment(u, { pictureId, comment: 'nope', responseTo });
      expect(res.statusCode).toBe(400);
      expect(firstError(res)).toEqual({
        field: 'responseTo',
        errorText: 'You can only reply to a top-level comment of this picture.',
      });
    }
    expect(await state(u, pictureId)).toEqual(before);
  });
});

describe('reactions', () => {
  it('an owned emoji at the chosen price: charged, listed, shown first, and the comment author is told', async () => {
    const { pictureId } = await picture();
    const writer = await someone(100);
    const fan = await someone(1_000, 0, ['UNCOMMON_EMOJI_FIRE', 'RARE_EMOJI_ROCKET']);
    const made = (await comment(writer, { pictureId, comment: 'react to me' })).json<Comment>();
    const res = await react(fan, { commentId: made.id, reactionType: 'UNCOMMON_EMOJI_FIRE', price: 20 });
    expect(res.statusCode, res.body).toBe(200);
    tick();
    const again = await react(fan, { commentId: made.id, reactionType: 'RARE_EMOJI_ROCKET', price: 30 });
    const after = again.json<Comment>();
    expect(after.reactions.map((r) => [r.reactionType, r.price, r.username])).toEqual([
      ['RARE_EMOJI_ROCKET', 30, fan.username],
      ['UNCOMMON_EMOJI_FIRE', 20, fan.username],
    ]);
    expect([after.firstReaction, after.secondReaction]).toEqual(['RARE_EMOJI_ROCKET', 'UNCOMMON_EMOJI_FIRE']);
    expect(await balance(fan)).toBe(950);
    const listed = (await t.client().get(`/api/picture/comment-reactions/${made.id}`)).json<Reaction[]>();
    expect(listed).toEqual(after.reactions);
    expect(await notifications(writer.id)).toEqual([
      expect.objectContaining({
        topic: 'IMAGE_COMMENT_REACTED',
        actor_id: fan.id,
        amount: 20,
        item: 'UNCOMMON_EMOJI_FIRE',
      }),
      expect.objectContaining({
        topic: 'IMAGE_COMMENT_REACTED',
        actor_id: fan.id,
        amount: 30,
        item: 'RARE_EMOJI_ROCKET',
      }),
    ]);
    expect((await entries(fan.id, 'REACTION')).length).toBe(2);
    await booksBalance();
  });

  it('refuses a letter, an unknown or unowned emoji and a price under 1¢, changing nothing', async () => {
    const { pictureId } = await picture();
    const fan = await someone(1_000, 26, ['UNCOMMON_EMOJI_FIRE']);
    const made = (await comment(fan, { pictureId, comment: 'mine' })).json<Comment>();
    const before = await state(fan, pictureId);
    for (const [body, field, text] of [
      [{ reactionType: 'COMMON_LETTER_A', price: 15 }, 'reactionType', 'React with an emoji item.'],
      [{ reactionType: 'UNCOMMON_EMOJI_NOPE', price: 15 }, 'reactionType', 'React with an emoji item.'],
      [{ reactionType: 'RARE_EMOJI_ROCKET', price: 15 }, 'reactionType', "You don't own Rocket"],
      [{ reactionType: 'UNCOMMON_EMOJI_FIRE', price: 0 }, 'price', undefined],
      [{ reactionType: 'UNCOMMON_EMOJI_FIRE', price: -5 }, 'price', undefined],
      [{ reactionType: 'UNCOMMON_EMOJI_FIRE', price: 1.5 }, 'price', undefined],
      [{ reactionType: 'UNCOMMON_EMOJI_FIRE', price: '15x' }, 'price', undefined],
      [{ reactionType: 5, price: 15 }, 'reactionType', undefined],
    ] as const) {
      const res = await react(fan, { commentId: made.id, ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(firstError(res)!.field).toBe(field);
      if (text) expect(firstError(res)!.errorText).toBe(text);
    }
    expect(await state(fan, pictureId)).toEqual(before);
    expect(
      (await react(fan, { commentId: 987_654_321, reactionType: 'UNCOMMON_EMOJI_FIRE', price: 15 })).statusCode,
    ).toBe(404);
    expect(
      (
        await t
          .client()
          .post('/api/picture/comment/reaction', { commentId: made.id, reactionType: 'UNCOMMON_EMOJI_FIRE', price: 15 })
      ).statusCode,
    ).toBe(401);
    expect((await t.client().get('/api/picture/comment-reactions/987654321')).statusCode).toBe(404);
    expect(await state(fan, pictureId)).toEqual(before);
  });

  it('one cent short answers 402 and changes nothing; a replay charges once', async () => {
    const { pictureId } = await picture();
    const writer = await someone(100);
    const made = (await comment(writer, { pictureId, comment: 'hello' })).json<Comment>();
    const fan = await someone(24, 0, ['UNCOMMON_EMOJI_FIRE']);
    const before = await state(fan, pictureId);
    const short = await react(fan, { commentId: made.id, reactionType: 'UNCOMMON_EMOJI_FIRE', price: 25 });
    expect(short.statusCode).toBe(402);
    expect(short.json()).toEqual({ missing: 1 });
    expect(await state(fan, pictureId)).toEqual(before);
    expect(await notifications(writer.id)).toEqual([]);

    const key = { 'idempotency-key': 'react-replay-1' };
    const body = { commentId: made.id, reactionType: 'UNCOMMON_EMOJI_FIRE', price: 10 };
    const first = await react(fan, body, key);
    const again = await react(fan, body, key);
    expect(first.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await balance(fan)).toBe(14);
    expect(
      await t
        .client()
        .get(`/api/picture/comment-reactions/${made.id}`)
        .then((r) => r.json()),
    ).toHaveLength(1);
    await booksBalance();
  });

  it('a reply can be reacted to; its own reaction is no news to its author', async () => {
    const { pictureId } = await picture();
    const u = await someone(1_000, 26, ['UNCOMMON_EMOJI_FIRE']);
    const parent = (await comment(u, { pictureId, comment: 'top' })).json<Comment>();
    const reply = (await comment(u, { pictureId, comment: 'reply', responseTo: parent.id })).json<Comment>();
    const res = await react(u, { commentId: reply.id, reactionType: 'UNCOMMON_EMOJI_FIRE', price: 5 });
    expect(res.json<Comment>()).toMatchObject({ id: reply.id, firstReaction: 'UNCOMMON_EMOJI_FIRE' });
    expect(await notifications(u.id)).toEqual([]);
  });
});

describe('pins', () => {
  it("the picture's author pins a top-level comment for 1¢; pinning again or a reply is refused", async () => {
    const { pictureId, author } = await picture();
    const u = await someone(1_000);
    const made = (await comment(u, { pictureId, comment: 'pin me' })).json<Comment>();
    const reply = (await comment(u, { pictureId, comment: 'not me', responseTo: made.id })).json<Comment>();
    const before = await balance(author);
    const seen: LiveEvent[] = [];
    const off = t.ctx.bus.subscribe((e) => e.ch === 'comment' && seen.push(e));
    const res = await pin(author, made.id);
    off();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Comment>()).toMatchObject({ id: made.id, isPinned: true, pinnedOn: new Date(clock).toISOString() });
    expect(await balance(author)).toBe(before - 1);
    expect(await entries(author.id, 'PIN')).toEqual([{ resource_id: String(made.id) }]);
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toEqual([
      expect.objectContaining({ t: 'commentUpdated', m: expect.objectContaining({ isPinned: true }) }),
    ]);

    const snapshot = await state(author, pictureId);
    const twice = await pin(author, made.id);
    expect(twice.statusCode).toBe(400);
    expect(firstError(twice)).toEqual({ field: 'commentId', errorText: 'This comment is already pinned.' });
    const ofReply = await pin(author, reply.id);
    expect(ofReply.statusCode).toBe(400);
    expect(firstError(ofReply)).toEqual({ field: 'commentId', errorText: 'A reply cannot be pinned.' });
    expect((await pin(author, 987_654_321)).statusCode).toBe(404);
    expect((await t.client().post('/api/picture/comment/pin', { commentId: made.id, balance: 0 })).statusCode).toBe(
      401,
    );
    expect(await state(author, pictureId)).toEqual(snapshot);
    await booksBalance();
  });

  it('an author with nothing left gets 402 {missing: 1}; a replay charges once', async () => {
    const author = await someone(100, 0);
    const pictureId = await makePicture(t.ctx, author.id, 100); // spends all of it
    const u = await someone(100);
    const made = (await comment(u, { pictureId, comment: 'hello' })).json<Comment>();
    const before = await state(author, pictureId);
    const short = await pin(author, made.id);
    expect(short.statusCode).toBe(402);
    expect(short.json()).toEqual({ missing: 1 });
    expect(await state(author, pictureId)).toEqual(before);

    await t.ctx.transact((work) => creditTopUp(work, author.id, 5, `test-more-${author.id}`));
    const key = { 'idempotency-key': 'pin-replay-1' };
    const first = await pin(author, made.id, key);
    const again = await pin(author, made.id, key);
    expect(first.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await balance(author)).toBe(4);
    await booksBalance();
  });
});

describe('the order of comments', () => {
  it('pinned first (latest pin first), then trending with replies included, then newest', async () => {
    const { pictureId, author } = await picture();
    const u = await someone(10_000, 26, ['UNCOMMON_EMOJI_FIRE']);
    const make = async (text: string, responseTo?: number) => {
      tick(60_000);
      return (await comment(u, { pictureId, comment: text, responseTo })).json<Comment>();
    };
    const a = await make('alpha');
    const b = await make('bravo');
    const c = await make('charlie');
    const d = await make('delta');
    const order = async () => (await list(pictureId)).map((x) => x.comment);
    expect(await order()).toEqual(['delta', 'charlie', 'bravo', 'alpha']);

    // A reaction lifts alpha above the newer ones.
    await react(u, { commentId: a.id, reactionType: 'UNCOMMON_EMOJI_FIRE', price: 15 });
    expect(await order()).toEqual(['alpha', 'delta', 'charlie', 'bravo']);

    // Bravo's reply earns more than alpha: the reply's reactions count for bravo.
    const reply = await make('bravo reply', b.id);
    await react(u, { commentId: reply.id, reactionType: 'UNCOMMON_EMOJI_FIRE', price: 100 });
    expect(await order()).toEqual(['bravo', 'alpha', 'delta', 'charlie']);

    // Pins come first, the latest pin first.
    tick();
    await pin(author, c.id);
    expect(await order()).toEqual(['charlie', 'bravo', 'alpha', 'delta']);
    tick();
    await pin(author, d.id);
    expect(await order()).toEqual(['delta', 'charlie', 'bravo', 'alpha']);

    // Trending decays: an hour later a fresh small reaction beats bravo's older big one.
    tick(3_600_000);
    await react(u, { commentId: a.id, reactionType: 'UNCOMMON_EMOJI_FIRE', price: 15 });
    expect(await order()).toEqual(['delta', 'charlie', 'alpha', 'bravo']);
    expect(await commentCount(pictureId)).toBe(5);
  });

  it('answers 404 for a picture that does not exist', async () => {
    expect((await t.client().get('/api/picture/comment/987654321')).statusCode).toBe(404);
  });
});
