import {
  ClientSeedBody,
  Done,
  EmptyBody,
  Fairness,
  KeyCountAnswer,
  KeyPurchaseBody,
  LootBoxCountAnswer,
  LootboxResult,
  Odds,
  OpeningList,
  OpeningsQuery,
  Rotation,
} from '../../../../common/api/lootboxes';
import { FieldErrors, Message, Missing } from '../../../../common/api/shared';
import type { App, AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { sendIdempotent, sendPaid } from '../../http/idempotency';
import { buyKeys, getLootbox, openLootbox, openLootboxInOneCall } from './lootboxes.commands';
import { presentFairness, presentOpening } from './lootboxes.presenter';
import { chooseClientSeed, counters, fairness, odds, openings, rotateSeed } from './lootboxes.service';

/** Keys, free boxes, openings and their proof (docs/product.md#lootboxes). */
export async function lootboxRoutes(app: App, ctx: AppContext): Promise<void> {
  const tags = ['lootboxes'];
  const signedIn = { 400: FieldErrors, 401: Message };

  app.post(
    '/api/purchase/key',
    {
      config: { auth: 'member' },
      schema: {
        summary: 'Buy keys at $1 each',
        operationId: 'buyKeys',
        tags,
        body: KeyPurchaseBody,
        response: { 200: KeyCountAnswer, ...signedIn, 402: Missing },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      return sendPaid(ctx, req, reply, user.id, async (work) => ({
        keyCount: await buyKeys(work, user.id, req.body.keyCount),
      }));
    },
  );

  app.post(
    '/api/purchase/lootbox',
    {
      config: { auth: 'member' },
      schema: {
        summary: 'Get a free loot box',
        operationId: 'getLootbox',
        tags,
        body: EmptyBody,
        response: { 200: LootBoxCountAnswer, ...signedIn },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      return sendIdempotent(ctx, req, reply, user.id, async (work) => ({
        lootBoxCount: await getLootbox(work, user.id),
      }));
    },
  );

  app.post(
    '/api/open/lootbox',
    {
      config: { auth: 'member' },
      schema: {
        summary: 'Open a loot box with a key',
        operationId: 'openLootbox',
        tags,
        body: EmptyBody,
        response: { 200: LootboxResult, ...signedIn },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      // Without an Idempotency-Key the opening is a transaction of its own: one round trip (docs/decisions.md, "Issue
      // 28: a lootbox opening in one call"). With one, the key's claim, the savepoint and the stored answer share the
      // transaction (http/idempotency.ts), and the opening is one statement in it.
      return sendIdempotent(
        ctx,
        req,
        reply,
        user.id,
        (work) => openLootbox(work, user.id, ctx.now()),
        () => openLootboxInOneCall(ctx, user.id, ctx.now()),
      );
    },
  );

  // Skipping the reveal is the client's business; the items were the user's the moment the box opened.
  app.post(
    '/api/open/lootbox/skip',
    {
      config: { auth: 'member' },
      schema: {
        summary: "Skip an opening's reveal (the items are already the user's)",
        operationId: 'skipOpening',
        tags,
        body: EmptyBody,
        response: { 200: Done, 401: Message },
      },
    },
    async (req) => {
      requireUser(req);
      return {};
    },
  );

  app.get(
    '/api/lootbox/odds',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'What a loot box can hold, and the odds of each',
        operationId: 'getLootboxOdds',
        tags,
        response: { 200: Odds },
      },
    },
    async () => odds(ctx),
  );

  app.get(
    '/api/lootbox/fairness',
    {
      config: { auth: 'user' },
      schema: {
        summary: "The signed-in user's seeds: the proof that no opening is rigged",
        operationId: 'getFairness',
        tags,
        response: { 200: Fairness, 401: Message },
      },
    },
    async (req) => presentFairness(await fairness(ctx, requireUser(req).id)),
  );

  app.put(
    '/api/lootbox/fairness',
    {
      config: { auth: 'user' },
      schema: {
        summary: "Choose the client seed of one's next openings",
        operationId: 'setClientSeed',
        tags,
        body: ClientSeedBody,
        response: { 200: Fairness, ...signedIn },
      },
    },
    async (req) => presentFairness(await chooseClientSeed(ctx, requireUser(req).id, req.body.clientSeed)),
  );

  app.post(
    '/api/lootbox/fairness/rotate',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Reveal the server seed in use and commit to a new one',
        operationId: 'rotateServerSeed',
        tags,
        body: EmptyBody,
        response: { 200: Rotation, 401: Message },
      },
    },
    async (req) => rotateSeed(ctx, requireUser(req).id),
  );

  app.get(
    '/api/lootbox/openings',
    {
      config: { auth: 'user' },
      schema: {
        summary: "The signed-in user's openings, to verify them",
        operationId: 'listOpenings',
        tags,
        querystring: OpeningsQuery,
        response: { 200: OpeningList, ...signedIn },
      },
    },
    async (req) => (await openings(ctx, requireUser(req).id, req.query)).map(presentOpening),
  );

  // A socket that (re)subscribes to a counter starts from its current value (docs/product.md#live).
  ctx.live.snapshot('keyCount', 'update', async (userId) => {
    const c = userId === null ? undefined : await counters(ctx, userId);
    return c && { value: c.keyCount };
  });
  ctx.live.snapshot('lootBoxCount', 'update', async (userId) => {
    const c = userId === null ? undefined : await counters(ctx, userId);
    return c && { value: c.lootBoxCount };
  });
}
