import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommentAnswer } from '../../../../common/api/comments';
import type { DonationLink } from '../../../../common/api/charity';
import { chatCost } from '../../../../common/writing';
import type { PushMessage, PushType } from '../../../../common/push';
import { CHAT_PUSH_EVERY_MS } from '../../../../common/push-messages';
import { sqlRows } from '../../db/connection';
import { goodwillJob } from '../../jobs/goodwill.job';
import { runJob } from '../../jobs/runner';
import { LiveTestClient, settle, sleep } from '../../live/live-test-client';
import { giveItems, makeUser, signIn } from '../../test/factories';
import { JOBS } from '../../jobs/jobs';
import { pushOutboxJob } from '../../jobs/push-outbox.job';
import { startTestApp, type TestApp, type TestClient } from '../../test/harness';
import { makePicture } from '../pictures/test-helpers';
import { queuedFor } from './push.repository';

/*
 * Every event of the eight push types queues its push in its own transaction (docs/product.md#push; docs/decisions.md
 * "Issue 27: which events push"): each source through the real API, for a user with a device, a user who switched the
 * type off, the actor themselves and a user who blocked the actor.
 */

/** The app's clock: the chat's coalescing and the monthly goodwill forwarding move it. */
let clock = new Date();
const tick = (ms = 1_000) => (clock = new Date(clock.getTime() + ms));

let t: TestApp;
beforeAll(async () => {
  // Without the push job: what is queued stays for the test to read (push.test.ts sends).
  t = await startTestApp({
    now: () => clock,
    config: { chatBaseUnitPrice: 1 },
    jobs: JOBS.filter((j) => j !== pushOutboxJob),
  });
});
afterAll(() => t.close());

interface Someone {
  id: number;
  username: string;
  client: TestClient;
}

let endpoints = 0;

/** A signed-in user with a balance, the letters A to Z, a fire emoji and, unless told, one device with push on. */
async function someone(opts: { device?: boolean; muted?: PushType[] } = {}): Promise<Someone> {
  const user = await makeUser(t.ctx, { balance: 100_000 });
  for (const l of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') await giveItems(t.ctx, user.id, `COMMON_LETTER_${l}`, 3);
  await giveItems(t.ctx, user.id, 'UNCOMMON_EMOJI_FIRE', 3);
  const client = await signIn(t, user.id);
  if (opts.device !== false) await subscribe(user.id);
  for (const type of opts.muted ?? []) {
    await t.ctx.db.execute(sql`INSERT INTO push_muted (user_id, type) VALUES (${user.id}, ${type})`);
  }
  return { ...user, client };
}

/** A device's subscription, as POST /api/push/subscriptions stores it: tied to one of the user's sessions. */
async function subscribe(userId: number): Promise<void> {
  await t.ctx.db.execute(
    sql`INSERT INTO push_subscriptions (user_id, session_hash, endpoint, p256dh, auth)
        SELECT ${userId}, token_hash, ${`https://push.invalid/send/${process.pid}-${++endpoints}`}, 'p256dh', 'auth'
          FROM sessions WHERE user_id = ${userId} LIMIT 1`,
  );
}

/** What is queued for a user's devices, oldest first; `type` keeps that type's only. */
async function pushes(userId: number, type?: PushType): Promise<PushMessage[]> {
  const all = (await queuedFor(t.ctx.db, userId)).map((r) => JSON.parse(r.payload) as PushMessage);
  return type === undefined ? all : all.filter((p) => p.type === type);
}

const block = async (blocker: Someone, blocked: Someone) =>
  expect((await blocker.client.post('/api/user/blocks', { userId: blocked.id })).statusCode).toBe(200);

async function ok<T>(res: Promise<{ statusCode: number; body: string; json<U>(): U }>): Promise<T> {
  const r = await res;
  expect(r.statusCode, r.body).toBe(200);
  return r.json<T>();
}

const comment = (u: Someone, pictureId: number, text: string, responseTo: number | null = null) =>
  ok<CommentAnswer>(u.client.post('/api/picture/comment', { pictureId, comment: text, responseTo, balance: 0 }));
const react = (u: Someone, commentId: number, price = 25) =>
  ok(
    u.client.post('/api/picture/comment/reaction', {
      commentId,
      reactionType: 'UNCOMMON_EMOJI_FIRE',
      price,
      balance: 0,
    }),
  );
const pin = (u: Someone, commentId: number) => ok(u.client.post('/api/picture/comment/pin', { commentId, balance: 0 }));
const fund = (u: Someone, imageId: number, amount: number) =>
  ok(u.client.post('/api/payment/checkout-with-image-fund', { imageId, amount, balance: 0 }));

describe('notification events push as their topic says', () => {
  it('a comment, a reply, a reaction and a like each push to the one they are for, never to the actor', async () => {
    const [author, ann, bo] = [await someone(), await someone(), await someone()];
    const pictureId = await makePicture(t.ctx, author.id, 100);

    const top = await comment(ann, pictureId, 'NICE');
    expect(await pushes(author.id)).toEqual([
      {
        type: 'COMMENT',
        title: 'New comment',
        body: `${ann.username} commented on your picture.`,
        url: `/image/profile/${pictureId}#${top.id}`,
      },
    ]);
    expect(await pushes(ann.id)).toEqual([]);

    // A reply tells the comment's author (COMMENT_REPLY) and the picture's author (IMAGE_COMMENT).
    const reply = await comment(bo, pictureId, 'YES', top.id);
    expect(await pushes(ann.id)).toEqual([
      {
        type: 'COMMENT',
        title: 'New reply',
        body: `${bo.username} replied to your comment.`,
        url: `/image/profile/${pictureId}#${reply.id}`,
      },
    ]);
    expect((await pushes(author.id)).map((p) => p.title)).toEqual(['New comment', 'New comment']);
    expect(await pushes(bo.id)).toEqual([]);

    await react(bo, top.id, 25);
    expect((await pushes(ann.id)).at(-1)).toEqual({
      type: 'REACTION',
      title: 'New reaction',
      body: `${bo.username} reacted 🔥 to your comment with $0.25.`,
      url: `/image/profile/${pictureId}#${top.id}`,
    });

    await fund(bo, pictureId, 300);
    expect((await pushes(author.id)).at(-1)).toEqual({
      type: 'REACTION',
      title: 'New like',
      body: `${bo.username} put $3 on your picture.`,
      url: `/image/profile/${pictureId}`,
    });
    expect(await pushes(bo.id)).toEqual([]);

    // The actor's own acts on their own things push nothing.
    const before = (await pushes(author.id)).length;
    await comment(author, pictureId, 'MINE');
    await fund(author, pictureId, 100);
    expect(await pushes(author.id)).toHaveLength(before);
  });

  it('nothing of a type the user switched off, nor to a user without a device, nor of an actor they blocked', async () => {
    const muted = await someone({ muted: ['COMMENT'] });
    const blocker = await someone();
    const bare = await someone({ device: false });
    const ann = await someone();
    await block(blocker, ann);
    for (const u of [muted, blocker, bare]) {
      const pictureId = await makePicture(t.ctx, u.id, 100);
      const c = await comment(ann, pictureId, 'HELLO');
      await fund(ann, pictureId, 200);
      if (u === muted) {
        // COMMENT is off; the like (REACTION) still pushes.
        expect((await pushes(u.id)).map((p) => p.type)).toEqual(['REACTION']);
      } else {
        expect(await pushes(u.id)).toEqual([]);
      }
      expect(c.id).toBeGreaterThan(0);
    }
    expect(await queuedFor(t.ctx.db, bare.id)).toEqual([]);
  });

  it('overtaking pushes nothing', async () => {
    const [victim, author, payer] = [await someone(), await someone(), await someone()];
    await makePicture(t.ctx, victim.id, 90_000);
    const lifted = await makePicture(t.ctx, author.id, 100);
    await fund(payer, lifted, 95_000);
    const overtook = await sqlRows(
      t.ctx.db,
      sql<{ n: number }>`SELECT count(*)::int AS n FROM notification_events
         WHERE user_id = ${victim.id} AND topic = 'IMAGE_OVERTOOK'`,
    );
    expect(overtook[0]!.n).toBe(1);
    expect(await pushes(victim.id)).toEqual([]);
    expect((await pushes(author.id)).map((p) => p.title)).toEqual(['New like']);
  });
});

describe('PIN', () => {
  it("pushes to the comment's author when the picture's author pins it, not to oneself, not when blocked or off", async () => {
    const [author, ann, blocker, muted] = [
      await someone(),
      await someone(),
      await someone(),
      await someone({ muted: ['PIN'] }),
    ];
    const pictureId = await makePicture(t.ctx, author.id, 100);
    const c = await comment(ann, pictureId, 'PIN ME');
    await pin(author, c.id);
    expect(await pushes(ann.id, 'PIN')).toEqual([
      {
        type: 'PIN',
        title: 'Comment pinned',
        body: `${author.username} pinned your comment.`,
        url: `/image/profile/${pictureId}#${c.id}`,
      },
    ]);

    const own = await comment(author, pictureId, 'MY OWN');
    await pin(author, own.id);
    expect(await pushes(author.id, 'PIN')).toEqual([]);

    await block(blocker, author);
    for (const u of [blocker, muted]) {
      const other = await makePicture(t.ctx, author.id, 100);
      await pin(author, (await comment(u, other, 'HEY')).id);
      expect(await pushes(u.id, 'PIN')).toEqual([]);
    }
  });
});

describe('CHARITY', () => {
  /** A charity tenant: any host that is not a cash host. */
  const GREEN = { host: 'green.example', origin: 'http://green.example' };
  let links = 0;
  const send = (u: Someone) =>
    ok<DonationLink>(
      u.client.request({
        method: 'POST',
        url: '/api/charity-link/send',
        payload: { link: `give.example.org/${u.id}/${++links}` },
        headers: GREEN,
      }),
    );
  const decision = { charityName: 'Red Cross', adminCategory: 'Humanitarian aid', isPubliclyVisible: true };

  it("pushes an administrator's decision to the link's sender, in its system message's words", async () => {
    const admin = await makeUser(t.ctx, { isAdmin: true });
    const adminClient = await signIn(t, admin.id);
    const [sender, muted] = [await someone(), await someone({ muted: ['CHARITY'] })];

    const approved = await send(sender);
    await ok(adminClient.post('/api/admin/charity/approve', { charityLinkId: approved.id, amount: 1234, ...decision }));
    const rejected = await send(sender);
    await ok(
      adminClient.post('/api/admin/charity/reject', { charityLinkId: rejected.id, reason: 'Not found.', ...decision }),
    );
    expect(await pushes(sender.id)).toEqual([
      {
        type: 'CHARITY',
        title: 'Donation link approved',
        body: 'Your donation link to Red Cross was approved: $12.34 was added to your balance.',
        url: '/my-donations',
      },
      {
        type: 'CHARITY',
        title: 'Donation link rejected',
        body: 'Your donation link to Red Cross was rejected: Not found.',
        url: '/my-donations',
      },
    ]);
    expect(await pushes(admin.id)).toEqual([]);

    const quiet = await send(muted);
    await ok(adminClient.post('/api/admin/charity/approve', { charityLinkId: quiet.id, amount: 100, ...decision }));
    expect(await pushes(muted.id)).toEqual([]);
  });
});

describe('ITEM_SOLD and ITEM_BOUGHT', () => {
  const J = 'COMMON_LETTER_J';
  const market = (u: Someone, path: string, body: Record<string, unknown>) =>
    ok(u.client.post(`/api/market/${path}`, { balance: 0, ...body }));

  it("push to the maker whose resting offer traded, with the taker's name, the item and the sum", async () => {
    const [seller, buyer] = [await someone(), await someone()];
    await market(seller, 'generic-sell-offer', { itemType: J, quantity: 1, price: 150 });
    await market(buyer, 'buy', { itemType: J, requestedPrice: 150 });
    expect(await pushes(seller.id)).toEqual([
      {
        type: 'ITEM_SOLD',
        title: 'Item sold',
        body: `${buyer.username} bought your Letter J for $1.50.`,
        url: `/items-detail/${J}/item-store`,
      },
    ]);
    expect(await pushes(buyer.id)).toEqual([]);

    await market(buyer, 'generic-buy-offer', { itemType: J, quantity: 2, price: 120 });
    await market(seller, 'sell-to-user', { itemType: J, price: 120, userId: buyer.id });
    expect(await pushes(buyer.id)).toEqual([
      {
        type: 'ITEM_BOUGHT',
        title: 'Item bought',
        body: `${seller.username} sold you Letter J for $1.20.`,
        url: `/items-detail/${J}/item-store`,
      },
    ]);
    expect(await pushes(seller.id)).toHaveLength(1);
  });

  it('nothing to a maker who blocked the taker or switched the type off', async () => {
    const K = 'COMMON_LETTER_K';
    const [blocker, muted, taker] = [await someone(), await someone({ muted: ['ITEM_SOLD'] }), await someone()];
    await block(blocker, taker);
    await market(blocker, 'generic-sell-offer', { itemType: K, quantity: 1, price: 101 });
    await market(muted, 'generic-sell-offer', { itemType: K, quantity: 1, price: 102 });
    await market(taker, 'buy', { itemType: K, requestedPrice: 1_000 });
    await market(taker, 'buy', { itemType: K, requestedPrice: 1_000 });
    expect(await pushes(blocker.id)).toEqual([]);
    expect(await pushes(muted.id)).toEqual([]);
  });
});

describe('CHAT', () => {
  const say = (u: Someone, message: string) =>
    ok(u.client.post('/api/user/message', { message, sendAmount: chatCost(message, 1) * 10, balance: 0 }));
  const chatPushes = (u: Someone) => pushes(u.id, 'CHAT');

  it('pushes to users away from the room at most once per 10 minutes, never the sender, the blocker or the muted', async () => {
    tick(CHAT_PUSH_EVERY_MS);
    const [sender, away, blocker, muted] = [
      await someone(),
      await someone(),
      await someone(),
      await someone({ muted: ['CHAT'] }),
    ];
    await block(blocker, sender);
    await say(sender, 'HELLO');
    expect(await chatPushes(away)).toEqual([
      { type: 'CHAT', title: 'New messages in the chat', body: `${sender.username}: HELLO`, url: '/chat' },
    ]);
    expect(await chatPushes(sender)).toEqual([]);
    expect(await chatPushes(blocker)).toEqual([]);
    expect(await chatPushes(muted)).toEqual([]);

    // More messages within 10 minutes: coalesced into that one push, whoever sends them.
    tick(60_000);
    await say(sender, 'AGAIN');
    tick(CHAT_PUSH_EVERY_MS - 120_000);
    await say(blocker, 'ME TOO');
    expect(await chatPushes(away)).toHaveLength(1);
    // The sender was pushed by the blocker's message (they did not block the blocker); only once.
    expect(await chatPushes(sender)).toHaveLength(1);
    // Ten minutes after the first: the next message pushes again.
    tick(60_000);
    await say(sender, 'LATER');
    expect((await chatPushes(away)).map((p) => p.body)).toEqual([
      `${sender.username}: HELLO`,
      `${sender.username}: LATER`,
    ]);
    expect(await chatPushes(blocker)).toEqual([]);
  });

  it('pushes nothing to a user with the room open', async () => {
    tick(CHAT_PUSH_EVERY_MS);
    const [sender, inside, away] = [await someone(), await someone(), await someone()];
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const room = await LiveTestClient.open(base, { cookie: inside.client.cookieHeader() });
    try {
      room.subscribe('chat');
      await settle(room);
      const others = async () =>
        (await away.client.get('/api/chat-room/online-users-without-me')).json<{ value: number }>().value;
      for (let i = 0; i < 80 && (await others()) !== 1; i++) await sleep(25);
      expect(await others()).toBe(1);
      await say(sender, 'HI ALL');
      expect(await chatPushes(inside)).toEqual([]);
      expect(await chatPushes(away)).toHaveLength(1);
    } finally {
      room.close();
    }
  });
});

describe('GOODWILL', () => {
  it('the monthly forwarding pushes once to each user whose shares it forwarded', async () => {
    const [payer, muted, idle] = [await someone(), await someone({ muted: ['GOODWILL'] }), await someone()];
    await payer.client.post('/api/user/good-will', { goodWill: 'SCIENCE' });
    await makePicture(t.ctx, payer.id, 400);
    await payer.client.post('/api/user/good-will', { goodWill: 'ENVIRONMENTAL' });
    await makePicture(t.ctx, payer.id, 300);
    await makePicture(t.ctx, muted.id, 400);
    const shares = await sqlRows(
      t.ctx.db,
      sql<{ n: number }>`SELECT count(*)::int AS n FROM journal_entries e JOIN postings p ON p.entry_id = e.id
          JOIN ledger_accounts a ON a.code = p.account_code AND a.kind = 'goodwill_payable'
         WHERE e.user_id = ${payer.id} AND p.amount > 0`,
    );
    expect(shares[0]!.n).toBe(2);

    // A month later (the shares' time is the database's clock): every share so far is due. The devices' sessions
    // are kept alive that long (a device whose session expired is signed out and gets nothing).
    await t.ctx.db.execute(sql`UPDATE sessions SET expires_at = now() + interval '90 days'`);
    const real = new Date();
    clock = new Date(Date.UTC(real.getUTCFullYear(), real.getUTCMonth() + 1, 1, 0, 5));
    expect(await runJob(t.ctx, goodwillJob)).toBe(true);
    expect(await pushes(payer.id, 'GOODWILL')).toEqual([
      {
        type: 'GOODWILL',
        title: 'Goodwill forwarded',
        body: 'The goodwill your spending set aside was forwarded to its cause.',
        url: '/goodwill',
      },
    ]);
    expect(await pushes(muted.id, 'GOODWILL')).toEqual([]);
    expect(await pushes(idle.id, 'GOODWILL')).toEqual([]);
    // Nothing left to forward: no second push.
    expect(await runJob(t.ctx, goodwillJob)).toBe(true);
    expect(await pushes(payer.id, 'GOODWILL')).toHaveLength(1);
  });
});
