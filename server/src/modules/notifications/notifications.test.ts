import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Comment } from '../../../../common/api/comments';
import type { Notification, NotificationPreview } from '../../../../common/api/notifications';
import type { LiveEvent } from '../../../../common/live';
import { sqlRows, type Columns } from '../../db/connection';
import type { notificationEvents } from './notifications.tables';
import { giveItems, makeUser, signIn } from '../../test/factories';
import { startTestApp, type TestApp, type TestClient } from '../../test/harness';
import { makePicture } from '../pictures/test-helpers';
import { notificationsOf } from './notifications.repository';

let clock = Date.parse('2026-04-01T12:00:00Z');
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ now: () => new Date((clock += 1_000)) });
});
afterAll(() => t.close());

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

interface Someone {
  id: number;
  username: string;
  client: TestClient;
}

async function someone(balance = 10_000, letters = 26, items: string[] = []): Promise<Someone> {
  const user = await makeUser(t.ctx, { balance });
  for (const l of ALPHABET.slice(0, letters)) await giveItems(t.ctx, user.id, `COMMON_LETTER_${l}`, 1);
  for (const item of items) await giveItems(t.ctx, user.id, item, 1);
  return { ...user, client: await signIn(t, user.id) };
}

const comment = async (u: Someone, pictureId: number, text: string, responseTo?: number) => {
  const res = await u.client.post('/api/picture/comment', { pictureId, comment: text, balance: 0, responseTo });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Comment>();
};
const fund = async (u: Someone, imageId: number, amount: number) => {
  const res = await u.client.post('/api/payment/checkout-with-image-fund', { imageId, amount, balance: 0 });
  expect(res.statusCode, res.body).toBe(200);
};
const list = async (u: Someone, query = '') => {
  const res = await u.client.get(`/api/user-notifications${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Notification[]>();
};
const unread = async (u: Someone) =>
  (await u.client.get('/api/user-notifications/unread-count')).json<{ value: number }>();
const read = (u: Someone, id: number, unreadIds = String(id)) =>
  u.client.post('/api/user-notifications/read', { id, unreadIds });

describe('each topic comes from its real event', () => {
  it('a comment tells the picture author (IMAGE_COMMENT), live, after the commit', async () => {
    const author = await someone();
    const writer = await someone();
    const pictureId = await makePicture(t.ctx, author.id, 100);
    const seen: LiveEvent[] = [];
    const off = t.ctx.bus.subscribe((e) => e.ch === 'notification' && seen.push(e));
    const made = await comment(writer, pictureId, 'Nice shot!');
    await new Promise((r) => setTimeout(r, 20));
    off();
    expect(seen).toEqual([
      { ch: 'notification', t: 'newNotification', m: { topic: 'IMAGE_COMMENT' }, userId: author.id },
    ]);
    const [n] = await list(author);
    expect(n).toMatchObject({
      b: { topic: 'IMAGE_COMMENT', seen: false },
      username: writer.username,
      profileUrl: null,
      pictureId,
      commentId: made.id,
      multiplicity: 1,
      uniqueActors: 1,
    });
    expect(Date.parse(n!.b.createdOn)).toBeGreaterThan(0);
    expect(await unread(author)).toEqual({ value: 1 });
    expect(await list(writer)).toEqual([]);
  });

  it('a reply tells the comment author (COMMENT_REPLY), a reaction tells them too (IMAGE_COMMENT_REACTED)', async () => {
    const author = await someone();
    const first = await someone();
    const second = await someone(10_000, 26, ['UNCOMMON_EMOJI_FIRE']);
    const pictureId = await makePicture(t.ctx, author.id, 100);
    const top = await comment(first, pictureId, 'First!');
    const reply = await comment(second, pictureId, 'Second!', top.id);
    const res = await second.client.post('/api/picture/comment/reaction', {
      commentId: top.id,
      reactionType: 'UNCOMMON_EMOJI_FIRE',
      price: 7,
      balance: 0,
    });
    expect(res.statusCode, res.body).toBe(200);
    const mine = await list(first);
    expect(mine).toEqual([
      expect.objectContaining({
        b: expect.objectContaining({ topic: 'IMAGE_COMMENT_REACTED' }),
        commentId: top.id,
        amount: 7,
        item: 'UNCOMMON_EMOJI_FIRE',
        username: second.username,
      }),
      expect.objectContaining({
        b: expect.objectContaining({ topic: 'COMMENT_REPLY' }),
        commentId: reply.id,
        pictureId,
        username: second.username,
      }),
    ]);
    // The type filter.
    expect((await list(first, '?topic=COMMENT_REPLY')).map((n) => n.b.topic)).toEqual(['COMMENT_REPLY']);
  });

  it('a payment tells the author (IMAGE_LIKE) and the authors it passed (IMAGE_OVERTOOK)', async () => {
    const leader = await someone(100_000);
    const climber = await someone(100_000);
    const fan = await someone(100_000);
    const leading = await makePicture(t.ctx, leader.id, 50_000);
    const climbing = await makePicture(t.ctx, climber.id, 10);
    await fund(fan, climbing, 60_000);
    expect(await list(climber)).toEqual([
      expect.objectContaining({
        b: expect.objectContaining({ topic: 'IMAGE_LIKE' }),
        pictureId: climbing,
        amount: 60_000,
        username: fan.username,
      }),
    ]);
    const [overtook] = await list(leader);
    expect(overtook).toMatchObject({ b: { topic: 'IMAGE_OVERTOOK' }, pictureId: leading, username: fan.username });
    // Its new place on the wall, 0 being the first (the click goes to /?index={amount}).
    expect(overtook!.amount).toBeGreaterThanOrEqual(1);
  });

  it('a trade tells the maker: a sell offer sold (ITEM_SOLD), a buy offer bought (ITEM_BOUGHT)', async () => {
    const item = 'UNCOMMON_EMOJI_FIRE';
    const seller = await someone(10_000, 0, [item, item]);
    const buyer = await someone(10_000, 0);
    const order = (u: Someone, path: string, body: Record<string, unknown>) =>
      u.client.post(`/api/market/${path}`, { balance: 0, ...body });
    expect((await order(seller, 'generic-sell-offer', { itemType: item, quantity: 1, price: 300 })).statusCode).toBe(
      200,
    );
    expect((await order(buyer, 'buy', { itemType: item, requestedPrice: 300 })).statusCode).toBe(200);
    expect(await list(seller)).toEqual([
      expect.objectContaining({
        b: expect.objectContaining({ topic: 'ITEM_SOLD' }),
        item,
        amount: 300,
        username: buyer.username,
      }),
    ]);
    expect((await order(buyer, 'generic-buy-offer', { itemType: item, quantity: 1, price: 250 })).statusCode).toBe(200);
    expect((await order(seller, 'generic-sell-offer', { itemType: item, quantity: 1, price: 250 })).statusCode).toBe(
      200,
    );
    expect(await list(buyer)).toEqual([
      expect.objectContaining({
        b: expect.objectContaining({ topic: 'ITEM_BOUGHT' }),
        item,
        amount: 250,
        username: seller.username,
      }),
    ]);
  });
});

describe('folding', () => {
  it('folds unseen events of one topic on one target, with the latest actor; reading it reads them all', async () => {
    const author = await someone();
    const [a, b, c] = [await someone(), await someone(), await someone()];
    const pictureId = await makePicture(t.ctx, author.id, 100);
    const other = await makePicture(t.ctx, author.id, 100);
    await comment(a, pictureId, 'One');
    await comment(b, pictureId, 'Two');
    expect(await list(author)).toEqual([
      expect.objectContaining({ pictureId, multiplicity: 2, uniqueActors: 2, username: b.username }),
    ]);
    await comment(a, pictureId, 'Three');
    const last = await comment(c, pictureId, 'Four');
    await comment(a, other, 'Elsewhere');
    const [elsewhere, folded] = await list(author);
    expect(elsewhere).toMatchObject({ pictureId: other, multiplicity: 1, uniqueActors: 1 });
    expect(folded).toMatchObject({
      pictureId,
      commentId: last.id,
      multiplicity: 4,
      uniqueActors: 3,
      username: c.username,
      b: { seen: false },
    });
    expect(await unread(author)).toEqual({ value: 2 });

    expect((await read(author, folded!.id)).statusCode).toBe(200);
    expect(await unread(author)).toEqual({ value: 1 });
    const [stillUnread, wasRead] = await list(author);
    expect(stillUnread).toMatchObject({ pictureId: other, b: { seen: false } });
    expect(wasRead).toEqual({ ...folded, b: { ...folded!.b, seen: true } });
    expect((await list(author, '?filter=READ')).map((n) => n.id)).toEqual([folded!.id]);
    expect((await list(author, '?filter=UNREAD')).map((n) => n.id)).toEqual([elsewhere!.id]);

    // A new comment after the read starts a new notification; the read one stays as it was.
    await comment(b, pictureId, 'Five');
    const after = await list(author);
    expect(after).toHaveLength(3);
    expect(after[0]).toMatchObject({ pictureId, multiplicity: 1, b: { seen: false } });
    expect(after[2]).toEqual(wasRead);
  });

  it('pages with a cursor, newest first, and bounds the limit', async () => {
    const author = await someone();
    const fan = await someone();
    for (let i = 0; i < 5; i++) await comment(fan, await makePicture(t.ctx, author.id, 100), `Hi ${i}`);
    const all = await list(author);
    expect(all).toHaveLength(5);
    const first = await list(author, '?limit=2');
    const second = await list(author, `?limit=2&cursor=${first[1]!.id}`);
    const third = await list(author, `?limit=2&cursor=${second[1]!.id}`);
    expect([...first, ...second, ...third]).toEqual(all);
    expect((await author.client.get('/api/user-notifications?limit=101')).statusCode).toBe(400);
    expect((await author.client.get('/api/user-notifications?limit=0')).statusCode).toBe(400);
    expect((await author.client.get('/api/user-notifications?filter=SOME')).statusCode).toBe(400);

    const preview = (await author.client.get('/api/user-notifications/preview')).json<NotificationPreview>();
    expect(preview).toEqual({ notifications: all, unreadCount: 5 });
  });

  it('a fold that spans the cursor stays on its first page; a short window falls back to grouping every fold', async () => {
    const author = await someone();
    const fan = await someone();
    const a = await makePicture(t.ctx, author.id, 100);
    const b = await makePicture(t.ctx, author.id, 100);
    await comment(fan, a, 'A one');
    await comment(fan, b, 'B one');
    for (let i = 0; i < 4; i++) await comment(fan, a, `A again ${i}`);
    const first = await list(author, '?filter=UNREAD&limit=1');
    expect(first).toEqual([expect.objectContaining({ pictureId: a, multiplicity: 5 })]);
    const second = await list(author, `?filter=UNREAD&limit=1&cursor=${first[0]!.id}`);
    expect(second).toEqual([expect.objectContaining({ pictureId: b, multiplicity: 1 })]);
    expect(await list(author, `?filter=UNREAD&limit=1&cursor=${second[0]!.id}`)).toEqual([]);

    const page = { filter: 'UNREAD', topic: null, before: null, limit: 2 } as const;
    const wide = await notificationsOf(t.ctx.db, author.id, { ...page, window: 1000 });
    const narrow = await notificationsOf(t.ctx.db, author.id, { ...page, window: 2 });
    expect(wide.map((n) => [Number(n.picture_id), n.multiplicity])).toEqual([
      [a, 5],
      [b, 1],
    ]);
    expect(narrow).toEqual(wide);
  });

  it('read-all reads every fold; unreadIds reads several at once', async () => {
    const author = await someone();
    const fan = await someone();
    for (let i = 0; i < 4; i++) await comment(fan, await makePicture(t.ctx, author.id, 100), `Hi ${i}`);
    const [n1, n2, n3] = await list(author);
    // The user's other tabs hear of each read, so their bells and lists refetch.
    const told: LiveEvent[] = [];
    const off = t.ctx.bus.subscribe((e) => e.ch === 'notification' && told.push(e));
    expect((await read(author, n1!.id, `${n2!.id};${n3!.id}`)).statusCode).toBe(200);
    expect(await unread(author)).toEqual({ value: 1 });
    expect((await author.client.post('/api/user-notifications/read-all')).statusCode).toBe(200);
    expect(await unread(author)).toEqual({ value: 0 });
    await new Promise((r) => setTimeout(r, 20));
    off();
    expect(told).toEqual([
      { ch: 'notification', t: 'notificationsRead', m: { all: false }, userId: author.id },
      { ch: 'notification', t: 'notificationsRead', m: { all: true }, userId: author.id },
    ]);
    expect(await list(author, '?filter=UNREAD')).toEqual([]);
    expect(await list(author, '?filter=READ')).toHaveLength(4);
  });

  it('answers 401 to a visitor', async () => {
    for (const url of [
      '/api/user-notifications',
      '/api/user-notifications/unread-count',
      '/api/user-notifications/preview',
    ]) {
      expect((await t.client().get(url)).statusCode).toBe(401);
    }
    expect((await t.client().post('/api/user-notifications/read-all')).statusCode).toBe(401);
  });
});

describe('reading is for one’s own', () => {
  it('refuses another user’s ids with 404 and marks nothing, even beside one’s own', async () => {
    const alice = await someone();
    const bob = await someone();
    const fan = await someone();
    await comment(fan, await makePicture(t.ctx, alice.id, 100), 'For Alice');
    await comment(fan, await makePicture(t.ctx, bob.id, 100), 'For Bob');
    const [aliceN] = await list(alice);
    const [bobN] = await list(bob);
    const seenFlags = () =>
      sqlRows(
        t.ctx.db,
        sql<
          Columns<typeof notificationEvents, 'seen'>
        >`SELECT seen FROM notification_events WHERE user_id IN (${alice.id}, ${bob.id}) ORDER BY id`,
      );
    const before = await seenFlags();
    const aliceUnread = await unread(alice);
    expect((await read(bob, aliceN!.id)).statusCode).toBe(404);
    expect((await read(bob, bobN!.id, `${aliceN!.id}`)).statusCode).toBe(404);
    expect((await read(bob, 987_654_321)).statusCode).toBe(404);
    expect(await seenFlags()).toEqual(before);
    expect(await unread(alice)).toEqual(aliceUnread);
    expect((await read(bob, bobN!.id, 'x;y')).statusCode).toBe(400);
  });
});
