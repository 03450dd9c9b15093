import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Comment } from '../../../common/api/comments';
import type { DonationLink } from '../../../common/api/charity';
import type { Notification } from '../../../common/api/notifications';
import { sqlRows } from '../db/connection';
import { checkConservation } from '../ledger/conservation';
import { makePicture } from '../modules/pictures/test-helpers';
import { giveItems, makeUser, signIn } from '../test/factories';
import { startTestApp, type TestApp, type TestClient } from '../test/harness';
import { appRoutes } from '../test/routes';

/*
 * The policy table, built from the route list (docs/ARCHITECTURE.md "server/src/http/"): every route that takes an
 * id (a path parameter, a query parameter or a body field naming a thing) is listed below, or this test fails. Each
 * is called logged out (401 unless the rule is public) and, where the thing is its owner's alone, by another user
 * with the owner's id (refused with its status). Neither call changes anything.
 */

let t: TestApp;
let world: World;
let bob: TestClient;

interface World {
  alice: number;
  picture: number;
  comment: number;
  notification: number;
  payment: string;
  link: number;
  /** A report of Alice's comment (by Carol), and a decision that removed a chat message of Alice's. */
  report: number;
  decision: number;
  /** Alice's thing in each domain of `OWNED`, by domain. */
  owned: Record<string, number>;
}

interface Row {
  /** The rule the route declares, as /api/openapi.json names it (x-authorization). */
  rule: string;
  request(w: World): InjectOptions;
  /** Another user with the owner's id: refused with this status; 'shared' where the thing is anybody's to use. */
  stranger: 400 | 403 | 404 | 'shared';
  /** Logged out: 401, unless the route is public. */
  visitor: 401 | 'allowed';
}

const Q = 'COMMON_LETTER_Q';
const decision = { charityName: 'Mine', adminCategory: 'Me', isPubliclyVisible: true };

/**
 * Domains added with `npm run new:domain` (scripts/new-domain.ts): how Alice makes her thing of the domain (its id
 * is `world.owned[domain]`), and the table the snapshot reads.
 */
const OWNED: Record<string, { table: string; make(alice: TestClient): Promise<number> }> = {
  // new-domain: owned (scripts/new-domain.ts adds a new domain's entry above this line)
};

const TABLE: Record<string, Row> = {
  // Things that are their owner's alone.
  'GET /api/payment/:id': {
    rule: 'payments.read',
    request: (w) => ({ method: 'GET', url: `/api/payment/${w.payment}` }),
    stranger: 403,
    visitor: 401,
  },
  'POST /api/payment/demo/:id/pay': {
    rule: 'payments.settleDemo',
    request: (w) => ({ method: 'POST', url: `/api/payment/demo/${w.payment}/pay`, payload: {} }),
    stranger: 403,
    visitor: 401,
  },
  'POST /api/payment/demo/:id/cancel': {
    rule: 'payments.settleDemo',
    request: (w) => ({ method: 'POST', url: `/api/payment/demo/${w.payment}/cancel`, payload: {} }),
    stranger: 403,
    visitor: 401,
  },
  'GET /demo-checkout/:id': {
    rule: 'payments.viewDemoCheckout',
    request: (w) => ({ method: 'GET', url: `/demo-checkout/${w.payment}` }),
    stranger: 404,
    visitor: 401,
  },
  'POST /api/picture/comment/pin': {
    rule: 'comments.pin',
    request: (w) => ({
      method: 'POST',
      url: '/api/picture/comment/pin',
      payload: { commentId: w.comment, balance: 0 },
    }),
    stranger: 403,
    visitor: 401,
  },
  'PUT /api/user/profile': {
    rule: 'users.wearPicture',
    request: (w) => ({ method: 'PUT', url: `/api/user/profile?imageId=${w.picture}` }),
    stranger: 403,
    visitor: 401,
  },
  'PATCH /api/user/profile': {
    rule: 'users.wearPicture',
    request: (w) => ({ method: 'PATCH', url: `/api/user/profile?imageId=${w.picture}` }),
    stranger: 403,
    visitor: 401,
  },
  'POST /api/user-notifications/read': {
    rule: 'notifications.read',
    request: (w) => ({
      method: 'POST',
      url: '/api/user-notifications/read',
      payload: { id: w.notification, unreadIds: String(w.notification) },
    }),
    stranger: 404,
    visitor: 401,
  },
  'GET /api/admin/user-donations/:userId': {
    rule: 'admin',
    request: (w) => ({ method: 'GET', url: `/api/admin/user-donations/${w.alice}` }),
    stranger: 403,
    visitor: 401,
  },
  'POST /api/admin/charity/approve': {
    rule: 'admin',
    request: (w) => ({
      method: 'POST',
      url: '/api/admin/charity/approve',
      payload: { charityLinkId: w.link, amount: 100_000, ...decision },
    }),
    stranger: 403,
    visitor: 401,
  },
  'POST /api/admin/charity/reject': {
    rule: 'admin',
    request: (w) => ({
      method: 'POST',
      url: '/api/admin/charity/reject',
      payload: { charityLinkId: w.link, reason: 'Spite', ...decision },
    }),
    stranger: 403,
    visitor: 401,
  },

  // Things that are anybody's to use: the wall, comments, public cards, offers, reports.
  'GET /api/pictures': {
    rule: 'public',
    request: (w) => ({ method: 'GET', url: `/api/pictures?authorId=${w.alice}` }),
    stranger: 'shared',
    visitor: 'allowed',
  },
  'GET /api/pictures/:id': {
    rule: 'public',
    request: (w) => ({ method: 'GET', url: `/api/pictures/${w.picture}` }),
    stranger: 'shared',
    visitor: 'allowed',
  },
  'GET /api/picture/comment/:pictureId': {
    rule: 'public',
    request: (w) => ({ method: 'GET', url: `/api/picture/comment/${w.picture}` }),
    stranger: 'shared',
    visitor: 'allowed',
  },
  'GET /api/picture/comment-reactions/:commentId': {
    rule: 'public',
    request: (w) => ({ method: 'GET', url: `/api/picture/comment-reactions/${w.comment}` }),
    stranger: 'shared',
    visitor: 'allowed',
  },
  'GET /api/user/user-info/:userId': {
    rule: 'public',
    request: (w) => ({ method: 'GET', url: `/api/user/user-info/${w.alice}` }),
    stranger: 'shared',
    visitor: 'allowed',
  },
  'POST /api/picture/comment': {
    rule: 'member',
    request: (w) => ({
      method: 'POST',
      url: '/api/picture/comment',
      payload: { pictureId: w.picture, comment: 'Q', balance: 0, responseTo: w.comment },
    }),
    stranger: 'shared',
    visitor: 401,
  },
  'POST /api/picture/comment/reaction': {
    rule: 'member',
    request: (w) => ({
      method: 'POST',
      url: '/api/picture/comment/reaction',
      payload: { commentId: w.comment, reactionType: 'UNCOMMON_EMOJI_FIRE', price: 1, balance: 0 },
    }),
    stranger: 'shared',
    visitor: 401,
  },
  'POST /api/payment/checkout-with-image-fund': {
    rule: 'member',
    request: (w) => ({
      method: 'POST',
      url: '/api/payment/checkout-with-image-fund',
      payload: { imageId: w.picture, amount: 1 },
    }),
    stranger: 'shared',
    visitor: 401,
  },
  'POST /api/market/buy-from-user': {
    rule: 'member',
    request: (w) => ({
      method: 'POST',
      url: '/api/market/buy-from-user',
      payload: { itemType: Q, price: 50, userId: w.alice, balance: 0 },
    }),
    stranger: 'shared',
    visitor: 401,
  },
  'POST /api/market/sell-to-user': {
    rule: 'member',
    request: (w) => ({
      method: 'POST',
      url: '/api/market/sell-to-user',
      payload: { itemType: Q, price: 40, userId: w.alice },
    }),
    stranger: 'shared',
    visitor: 401,
  },
  'POST /api/user/report-message': {
    rule: 'member',
    request: (w) => ({
      method: 'POST',
      url: '/api/user/report-message',
      payload: { messageId: w.comment, reason: 'spam', description: 'Spam.', type: 'COMMENT' },
    }),
    stranger: 'shared',
    visitor: 401,
  },
  // The mailed secret is the proof, whoever sends it: a wrong one is a 400 and verifies nothing.
  'POST /api/auth/verify-email': {
    rule: 'public',
    request: (w) => ({ method: 'POST', url: '/api/auth/verify-email', payload: { userId: w.alice, secret: 'guess' } }),
    stranger: 400,
    visitor: 'allowed',
  },
  // Moderation (docs/product.md#moderation): deciding is the admins'; only the author appeals their decision.
  'POST /api/admin/reports/decide': {
    rule: 'admin',
    request: (w) => ({
      method: 'POST',
      url: '/api/admin/reports/decide',
      payload: { reportId: w.report, action: 'remove', category: 'spam', reasons: 'Spam.', refund: true },
    }),
    stranger: 403,
    visitor: 401,
  },
  'POST /api/admin/appeals/decide': {
    rule: 'admin',
    request: (w) => ({
      method: 'POST',
      url: '/api/admin/appeals/decide',
      payload: { decisionId: w.decision, outcome: 'reverse', reasons: 'Fine.' },
    }),
    stranger: 403,
    visitor: 401,
  },
  'POST /api/user/moderation/appeal': {
    rule: 'moderation.appeal',
    request: (w) => ({
      method: 'POST',
      url: '/api/user/moderation/appeal',
      payload: { decisionId: w.decision, text: 'Mine.' },
    }),
    stranger: 404,
    visitor: 401,
  },
  // Blocking names another user by nature: anybody may be blocked (docs/product.md#blocks).
  'POST /api/user/blocks': {
    rule: 'user',
    request: (w) => ({ method: 'POST', url: '/api/user/blocks', payload: { userId: w.alice } }),
    stranger: 'shared',
    visitor: 401,
  },
  'DELETE /api/user/blocks/:userId': {
    rule: 'user',
    request: (w) => ({ method: 'DELETE', url: `/api/user/blocks/${w.alice}` }),
    stranger: 'shared',
    visitor: 401,
  },
  // new-domain: rows (scripts/new-domain.ts adds a new domain's rows above this line)
};

/** Names that point at a thing (a cursor such as `beforeId` points at nothing of anybody's). */
const ID_NAME = /^(?!before)(id|\w+Id|\w+Ids|responseTo)$/;

interface Operation {
  'x-authorization'?: string;
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
}

/** Every route the app serves that takes an id, as "METHOD /path/:param", with its operation when documented. */
async function routesTakingIds(): Promise<Map<string, Operation | undefined>> {
  const doc = (await t.client().get('/api/openapi.json')).json<{ paths: Record<string, Record<string, Operation>> }>();
  const found = new Map<string, Operation | undefined>();
  for (const { method, url } of appRoutes(t.app)) {
    const op = doc.paths[url.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
    const names = [
      ...(url.match(/:\w+/g) ?? []).map((p) => p.slice(1)),
      ...(op?.parameters ?? []).map((p) => p.name),
      ...Object.values(op?.requestBody?.content ?? {}).flatMap((c) => Object.keys(c.schema.properties ?? {})),
    ];
    if (names.some((n) => ID_NAME.test(n))) found.set(`${method} ${url}`, op);
  }
  return found;
}

/** Everything a refused call could have touched. */
const snapshot = async () => ({
  core: await sqlRows(
    t.ctx.db,
    sql<Record<string, unknown>>`SELECT (SELECT json_agg(a ORDER BY a.code) FROM ledger_accounts a) AS accounts,
               (SELECT json_agg(p ORDER BY p.id) FROM payments p) AS payments,
               (SELECT json_agg(c ORDER BY c.id) FROM comments c) AS comments,
               (SELECT json_agg(n ORDER BY n.id) FROM notification_events n) AS notes,
               (SELECT json_agg(json_build_array(u.id, u.profile_image_id) ORDER BY u.id) FROM users u) AS faces,
               (SELECT json_agg(l ORDER BY l.id) FROM charity_links l) AS links,
               (SELECT json_agg(o ORDER BY o.id) FROM market_offers o) AS offers,
               (SELECT count(*)::int FROM charity_options) AS options,
               (SELECT count(*)::int FROM journal_entries) AS entries,
               (SELECT count(*)::int FROM reports) AS reports,
               (SELECT json_agg(d ORDER BY d.id) FROM moderation_decisions d) AS decisions,
               (SELECT json_agg(a ORDER BY a.decision_id) FROM moderation_appeals a) AS appeals,
               (SELECT count(*)::int FROM user_blocks) AS blocks`,
  ),
  owned: await Promise.all(
    Object.values(OWNED).map(({ table }) =>
      sqlRows(
        t.ctx.db,
        sql<{ rows: unknown }>`SELECT json_agg(x ORDER BY x.id) AS rows FROM ${sql.identifier(table)} x`,
      ),
    ),
  ),
});

/**
 * Alice owns a picture with her comment on it, a notification (Carol commented too), a demo payment, a donation
 * link, offers both ways on Q and a thing of each domain of `OWNED`. Bob, signed in with money, owns none of it.
 */
async function aliceWorld(): Promise<World> {
  const alice = await makeUser(t.ctx, { balance: 1_000 });
  const client = await signIn(t, alice.id);
  const picture = await makePicture(t.ctx, alice.id, 100);
  const comment = (
    await client.post('/api/picture/comment', { pictureId: picture, comment: 'Mine!', balance: 0 })
  ).json<Comment>().id;
  const carol = await makeUser(t.ctx, { balance: 1_000 });
  for (const l of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') await giveItems(t.ctx, carol.id, `COMMON_LETTER_${l}`, 1);
  const carolClient = await signIn(t, carol.id);
  await carolClient.post('/api/picture/comment', { pictureId: picture, comment: 'HELLO', balance: 0 });
  const report = (
    await carolClient.post('/api/user/report-message', {
      messageId: comment,
      reason: 'spam',
      description: 'Spam.',
      type: 'COMMENT',
    })
  ).json<{ id: number }>().id;
  const [decided] = await sqlRows(
    t.ctx.db,
    sql<{ id: number }>`INSERT INTO moderation_decisions
          (content_type, content_id, author_id, action, category, reasons, decided_by)
        VALUES ('CHAT', 0, ${alice.id}, 'remove', 'spam', 'Spam.', ${carol.id}) RETURNING id`,
  );
  await sqlRows(
    t.ctx.db,
    sql<{ id: number }>`INSERT INTO moderation_appeals (decision_id, text) VALUES (${decided!.id}, 'Mine.')
        RETURNING decision_id AS id`,
  );
  const [notification] = (await client.get('/api/user-notifications')).json<Notification[]>();
  const checkout = await client.post('/api/payment/checkout', { amount: 500, url: '/' });
  const payment = new URL(checkout.json<{ url: string }>().url).pathname.split('/').pop()!;
  const link = (
    await client.post(
      '/api/charity-link/send',
      { link: `give.example.org/alice/${alice.id}` },
      { host: 'green.example', origin: 'http://green.example' },
    )
  ).json<DonationLink>().id;
  await giveItems(t.ctx, alice.id, Q, 3);
  await client.post('/api/market/generic-sell-offer', { itemType: Q, quantity: 1, price: 50 });
  await client.post('/api/market/generic-buy-offer', { itemType: Q, quantity: 1, price: 40, balance: 0 });
  const owned: Record<string, number> = {};
  for (const [domain, { make }] of Object.entries(OWNED)) owned[domain] = await make(client);
  return {
    alice: alice.id,
    picture,
    comment,
    notification: notification!.id,
    payment,
    link,
    report,
    decision: Number(decided!.id),
    owned,
  };
}

beforeAll(async () => {
  t = await startTestApp();
  world = await aliceWorld();
  bob = await signIn(t, (await makeUser(t.ctx, { balance: 500 })).id);
});
afterAll(() => t.close());

describe('the policy table, from the route list', () => {
  it('lists every route that takes an id, with the rule it declares', async () => {
    const routes = await routesTakingIds();
    expect([...routes.keys()].sort()).toEqual(Object.keys(TABLE).sort());
    for (const [route, op] of routes) if (op) expect(op['x-authorization'], route).toBe(TABLE[route]!.rule);
  });

  for (const [route, row] of Object.entries(TABLE)) {
    it(`${route}: logged out, ${row.visitor === 401 ? '401' : 'allowed'}, and nothing changes`, async () => {
      const before = await snapshot();
      const res = await t.client().request(row.request(world));
      if (row.visitor === 401) expect(res.statusCode, res.body).toBe(401);
      else expect(res.statusCode, res.body).not.toBe(401);
      expect(await snapshot()).toEqual(before);
    });

    const refused = row.stranger;
    if (refused === 'shared') continue;
    it(`${route}: another user's id answers ${refused}, and nothing changes`, async () => {
      const before = await snapshot();
      const res = await bob.request(row.request(world));
      expect(res.statusCode, res.body).toBe(refused);
      expect(await snapshot()).toEqual(before);
      expect((await checkConservation(t.ctx.db)).ok).toBe(true);
    });
  }
});
