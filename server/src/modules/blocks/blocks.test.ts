import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlockedUsers } from '../../../../common/api/blocks';
import type { ChatMessage } from '../../../../common/api/chat';
import type { Comment } from '../../../../common/api/comments';
import type { LiveEvent } from '../../../../common/live';
import { sqlRows } from '../../db/connection';
import { checkConservation } from '../../ledger/conservation';
import { LiveTestClient, settle, sleep } from '../../live/live-test-client';
import { giveItems, makeUser, signIn } from '../../test/factories';
import { startTestApp, type TestApp, type TestClient } from '../../test/harness';
import { makePicture } from '../pictures/test-helpers';

/*
 * Blocking a user (docs/product.md#blocks): the blocker gets none of the blocked user's chat messages, comments,
 * replies or notifications, in lists and live, and the blocked user's reply to or reaction on the blocker's comment
 * is refused with 403 and charges nothing.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

interface Someone {
  id: number;
  username: string;
  client: TestClient;
}

/** A signed-in user with money, every letter and an emoji. */
async function someone(): Promise<Someone> {
  const user = await makeUser(t.ctx, { balance: 5_000 });
  for (const l of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') await giveItems(t.ctx, user.id, `COMMON_LETTER_${l}`, 1);
  await giveItems(t.ctx, user.id, 'UNCOMMON_EMOJI_FIRE', 2);
  return { ...user, client: await signIn(t, user.id) };
}

const block = (who: Someone, whom: Someone) => who.client.post('/api/user/blocks', { userId: whom.id });
const balanceOf = async (u: Someone) => (await u.client.get('/api/user/profile')).json<{ balance: number }>().balance;
const comment = (u: Someone, pictureId: number, text: string, responseTo?: number) =>
  u.client.post('/api/picture/comment', { pictureId, comment: text, ...(responseTo ? { responseTo } : {}) });
const commentsSeenBy = async (u: Someone | null, pictureId: number) => {
  const list = (await (u?.client ?? t.client()).get(`/api/picture/comment/${pictureId}`)).json<Comment[]>();
  return list.flatMap((c) => [c.comment, ...c.commentResponses.map((r) => r.comment)]);
};

/** The live events raised while `act` runs, as the bus carries them. */
async function heard(act: () => Promise<unknown>): Promise<LiveEvent[]> {
  const seen: LiveEvent[] = [];
  const off = t.bus.subscribe((e) => void seen.push(e));
  try {
    await act();
    await sleep(50);
  } finally {
    off();
  }
  return seen;
}

describe('POST, GET and DELETE /api/user/blocks', () => {
  it('blocks once per pair, lists the blocked, and undoes it', async () => {
    const [ann, ben, cid] = [await someone(), await someone(), await someone()];
    expect((await block(ann, ben)).statusCode).toBe(200);
    const again = await block(ann, ben);
    expect(again.statusCode).toBe(200);
    expect((await block(ann, cid)).statusCode).toBe(200);
    const list = (await ann.client.get('/api/user/blocks')).json<BlockedUsers>();
    expect(list.map((b) => [b.userId, b.username]).sort()).toEqual(
      [
        [ben.id, ben.username],
        [cid.id, cid.username],
      ].sort(),
    );
    expect(Number.isNaN(Date.parse(list[0]!.blockedOn))).toBe(false);
    // Nobody else's list changed.
    expect((await ben.client.get('/api/user/blocks')).json()).toEqual([]);

    const undone = await ann.client.request({ method: 'DELETE', url: `/api/user/blocks/${ben.id}` });
    expect(undone.statusCode).toBe(200);
    expect(undone.json<BlockedUsers>().map((b) => b.userId)).toEqual([cid.id]);
    expect((await ann.client.request({ method: 'DELETE', url: `/api/user/blocks/${ben.id}` })).statusCode).toBe(200);
  });

  it('refuses blocking oneself (400), an unknown user (404) and a visitor (401)', async () => {
    const ann = await someone();
    const self = await ann.client.post('/api/user/blocks', { userId: ann.id });
    expect(self.statusCode).toBe(400);
    expect(self.json()[0].field).toBe('userId');
    expect((await ann.client.post('/api/user/blocks', { userId: 987_654_321 })).statusCode).toBe(404);
    expect((await t.client().post('/api/user/blocks', { userId: ann.id })).statusCode).toBe(401);
    expect((await t.client().get('/api/user/blocks')).statusCode).toBe(401);
    expect((await ann.client.get('/api/user/blocks')).json()).toEqual([]);
  });
});

describe('what the blocker no longer gets', () => {
  it("chat: none of the blocked user's messages, in the last 50 and live on the blocker's sockets", async () => {
    const [ann, ben, cid] = [await someone(), await someone(), await someone()];
    await block(ann, ben);
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const annTab = await LiveTestClient.open(base, { cookie: ann.client.cookieHeader() });
    const cidTab = await LiveTestClient.open(base, { cookie: cid.client.cookieHeader() });
    try {
      for (const tab of [annTab, cidTab]) {
        tab.subscribe('chat');
        await settle(tab);
      }
      const sent = await ben.client.post('/api/user/message', { message: 'HI ANN', sendAmount: 1_000 });
      expect(sent.statusCode, sent.body).toBe(200);
      await cidTab.next((f) => f.ch === 'chat' && f.t === 'textMessage' && (f.m as ChatMessage).message === 'HI ANN');
      const fromCid = await cid.client.post('/api/user/message', { message: 'HI ALL', sendAmount: 1_000 });
      expect(fromCid.statusCode, fromCid.body).toBe(200);
      // Ann hears Cid's message, sent after Ben's, and never Ben's.
      await annTab.next((f) => f.ch === 'chat' && f.t === 'textMessage' && (f.m as ChatMessage).message === 'HI ALL');
      const annHeard = annTab.frames.filter((f) => f.ch === 'chat' && f.t === 'textMessage');
      expect(annHeard.map((f) => (f.m as ChatMessage).senderId)).not.toContain(ben.id);
    } finally {
      annTab.close();
      cidTab.close();
    }
    const senders = async (u: Someone | null) =>
      (await (u?.client ?? t.client()).get('/api/last-50-messages')).json<ChatMessage[]>().map((m) => m.senderId);
    expect(await senders(ann)).not.toContain(ben.id);
    expect(await senders(ann)).toContain(cid.id);
    expect(await senders(cid)).toContain(ben.id);
    expect(await senders(null)).toContain(ben.id);
  });

  it('comments and replies: none of the blocked user’s, in the list and live', async () => {
    const [ann, ben, cid] = [await someone(), await someone(), await someone()];
    const picture = await makePicture(t.ctx, cid.id, 100);
    await block(ann, ben);

    const created = await heard(() => comment(ben, picture, 'BENS WORD'));
    const benComment = created.find((e) => e.ch === 'comment')!;
    expect(benComment.t).toBe('commentCreated');
    expect(benComment.except).toEqual([ann.id]);
    const benId = (benComment.m as Comment).id;

    const cidComment = (await comment(cid, picture, 'CIDS WORD')).json<Comment>().id;
    const replied = await heard(() => comment(ben, picture, 'BENS REPLY', cidComment));
    const toAll = replied.find((e) => e.ch === 'comment' && e.except)!;
    expect(toAll.except).toEqual([ann.id]);
    expect((toAll.m as Comment).commentResponses.map((r) => r.comment)).toEqual(['BENS REPLY']);
    // Ann gets the thread without Ben's reply.
    const toAnn = replied.find((e) => e.ch === 'comment' && e.userId === ann.id)!;
    expect((toAnn.m as Comment).commentResponses).toEqual([]);
    // A reply of Cid's under Ben's comment goes with it.
    await comment(cid, picture, 'CIDS REPLY', benId);

    expect((await commentsSeenBy(ann, picture)).sort()).toEqual(['CIDS WORD']);
    expect((await commentsSeenBy(cid, picture)).sort()).toEqual(['BENS REPLY', 'BENS WORD', 'CIDS REPLY', 'CIDS WORD']);
    expect((await commentsSeenBy(null, picture)).length).toBe(4);
    // Undone, all of it shows again.
    await ann.client.request({ method: 'DELETE', url: `/api/user/blocks/${ben.id}` });
    expect((await commentsSeenBy(ann, picture)).length).toBe(4);
  });

  it('notifications: none of the blocked user’s, in the count, the list and live', async () => {
    const [ann, ben, cid] = [await someone(), await someone(), await someone()];
    const picture = await makePicture(t.ctx, ann.id, 100);
    const unread = async () =>
      (await ann.client.get('/api/user-notifications/unread-count')).json<{ value: number }>().value;
    await block(ann, ben);
    const events = await heard(() => comment(ben, picture, 'HELLO'));
    expect(events.filter((e) => e.ch === 'notification' && e.userId === ann.id)).toEqual([]);
    expect(await unread()).toBe(0);
    expect((await ann.client.get('/api/user-notifications')).json()).toEqual([]);
    expect((await ann.client.get('/api/user-notifications/preview')).json()).toMatchObject({ unreadCount: 0 });

    const fromCid = await heard(() => comment(cid, picture, 'HELLO'));
    expect(fromCid.filter((e) => e.ch === 'notification' && e.userId === ann.id)).toHaveLength(1);
    expect(await unread()).toBe(1);
    const list = (await ann.client.get('/api/user-notifications')).json<{ username: string; actorId: number }[]>();
    expect(list.map((n) => [n.username, n.actorId])).toEqual([[cid.username, cid.id]]);
  });

  it("chat's missed count leaves out the blocked user's messages", async () => {
    const [ann, ben, cid] = [await someone(), await someone(), await someone()];
    const missed = async () => (await ann.client.get('/api/chat-room/missed-messages')).json<{ value: number }>().value;
    const before = await missed();
    await block(ann, ben);
    for (const [who, text] of [
      [ben, 'ONE'],
      [cid, 'TWO'],
      [ben, 'THREE'],
    ] as const) {
      const sent = await who.client.post('/api/user/message', { message: text, sendAmount: 1_000 });
      expect(sent.statusCode, sent.body).toBe(200);
    }
    expect(await missed()).toBe(before + 1);
    // Undone, Ben's messages count again.
    await ann.client.request({ method: 'DELETE', url: `/api/user/blocks/${ben.id}` });
    expect(await missed()).toBe(before + 3);
  });
});

describe("the blocked user and the blocker's comments", () => {
  it('a reply or a reaction answers 403 and charges nothing', async () => {
    const [ann, ben] = [await someone(), await someone()];
    const picture = await makePicture(t.ctx, ann.id, 100);
    const annComment = (await comment(ann, picture, 'MINE')).json<Comment>().id;
    await block(ann, ben);
    const before = await balanceOf(ben);
    const count = async () =>
      (await sqlRows(t.ctx.db, sql<{ n: number }>`SELECT count(*)::int AS n FROM comments`))[0]!.n;
    const comments = await count();

    const reply = await comment(ben, picture, 'NO', annComment);
    expect(reply.statusCode, reply.body).toBe(403);
    const reaction = await ben.client.post('/api/picture/comment/reaction', {
      commentId: annComment,
      reactionType: 'UNCOMMON_EMOJI_FIRE',
      price: 5,
    });
    expect(reaction.statusCode, reaction.body).toBe(403);
    expect(await balanceOf(ben)).toBe(before);
    expect(await count()).toBe(comments);
    // A comment of his own on the picture is no reply: it is taken (Ann does not see it).
    expect((await comment(ben, picture, 'OWN')).statusCode).toBe(200);
    expect(await commentsSeenBy(ann, picture)).toEqual(['MINE']);
    expect((await checkConservation(t.ctx.db)).ok).toBe(true);
  });
});
