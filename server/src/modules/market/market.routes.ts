import {
  BuyFromUserBody,
  BuyOfferBody,
  GraphUnlockBody,
  ItemTypeParams,
  MarketBuyBody,
  OfferList,
  OfferMoved,
  OrderAnswer,
  PriceMoved,
  SellOfferBody,
  SellToUserBody,
  TradeData,
} from '../../../../common/api/market';
import { itemOf } from '../../../../common/items';
import { FieldErrors, Message, Missing, Paid } from '../../../../common/api/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { fieldError } from '../../http/errors';
import { sendIdempotent, sendPaid } from '../../http/idempotency';
import {
  TEXT,
  marketBuy,
  placeBuyOffer,
  placeSellOffer,
  tradeWithUser,
  unlockGraphs,
  type OrderContext,
  type Ordered,
  type Place,
} from './market.commands';
import { presentOffer, presentOrder, presentTradeData } from './market.presenter';
import { offers, tradeData } from './market.service';
import { marketPolicy } from './market.policy';

/** The market (docs/product.md#market): offers, trades and the price graphs. */
export async function marketRoutes(app: App, ctx: AppContext): Promise<void> {
  const tags = ['market'];
  const signedIn = { 400: FieldErrors, 401: Message };
  const order = (): OrderContext => ({ now: ctx.now(), feeBps: ctx.config.marketFeeBps });
  // A paid answer (http/idempotency.ts sendPaid): the caller's balance as the order's transaction left it.
  const answer = (o: Ordered) => ({ ...presentOrder(o.itemType, o.fills, o.market, o.position), balance: o.balance });

  /**
   * An order, answered as `sendPaid` answers (docs/decisions.md "Issue 28: a market order in one round trip"):
   * without an Idempotency-Key it is a transaction of its own sent in one round trip; with one, it runs in the
   * transaction that holds the key (`sendIdempotent`), where its refusal is stored and replayed like a success.
   */
  const sendOrder = (
    req: FastifyRequest,
    reply: FastifyReply,
    userId: number,
    run: (at: Place) => Promise<Ordered>,
  ): Promise<FastifyReply> =>
    sendIdempotent(
      ctx,
      req,
      reply,
      userId,
      async (work) => answer(await run(work)),
      async () => answer(await run(ctx)),
    );

  app.post(
    '/api/market/generic-sell-offer',
    {
      config: { auth: 'member' },
      schema: {
        summary: 'Offer items for sale at a price',
        operationId: 'placeSellOffer',
        tags,
        body: SellOfferBody,
        response: { 200: OrderAnswer, ...signedIn },
      },
    },
    async (req, reply) => {
      const userId = requireUser(req).id;
      const { itemType, price, quantity } = req.body;
      return sendOrder(req, reply, userId, (at) => placeSellOffer(at, order(), { userId, itemType, price, quantity }));
    },
  );

  app.post(
    '/api/market/generic-buy-offer',
    {
      config: { auth: 'member' },
      schema: {
        summary: 'Offer to buy items at a price (the money is held)',
        operationId: 'placeBuyOffer',
        tags,
        body: BuyOfferBody,
        response: { 200: OrderAnswer, ...signedIn, 402: Missing },
      },
    },
    async (req, reply) => {
      const userId = requireUser(req).id;
      const { itemType, price, quantity } = req.body;
      return sendOrder(req, reply, userId, (at) => placeBuyOffer(at, order(), { userId, itemType, price, quantity }));
    },
  );

  app.post(
    '/api/market/buy',
    {
      config: { auth: 'member' },
      schema: {
        summary: 'Buy one unit at the lowest sell price',
        operationId: 'buyAtMarket',
        tags,
        body: MarketBuyBody,
        response: { 200: OrderAnswer, ...signedIn, 402: Missing, 404: Message, 409: PriceMoved },
      },
    },
    async (req, reply) => {
      const userId = requireUser(req).id;
      const { itemType, requestedPrice } = req.body;
      return sendOrder(req, reply, userId, (at) => marketBuy(at, order(), { userId, itemType, requestedPrice }));
    },
  );

  // One unit of another user's offer: buy from their sell offer, or sell to their buy offer.
  for (const [path, side, response] of [
    ['buy-from-user', 'BUY', { 200: OrderAnswer, ...signedIn, 402: Missing, 409: OfferMoved }],
    ['sell-to-user', 'SELL', { 200: OrderAnswer, ...signedIn, 409: OfferMoved }],
  ] as const) {
    app.post(
      `/api/market/${path}`,
      {
        config: { auth: 'member' },
        schema: {
          summary:
            side === 'BUY'
              ? "Buy one unit from another user's sell offer"
              : "Sell one unit to another user's buy offer",
          operationId: side === 'BUY' ? 'buyFromUser' : 'sellToUser',
          tags,
          body: side === 'BUY' ? BuyFromUserBody : SellToUserBody,
          response,
        },
      },
      async (req, reply) => {
        const userId = requireUser(req).id;
        const { itemType, price, userId: counterpartyId } = req.body;
        return sendOrder(req, reply, userId, (at) =>
          tradeWithUser(at, order(), { userId, itemType, side, counterpartyId, price }),
        );
      },
    );
  }

  const knownItem = (itemType: string) => {
    if (!itemOf(itemType)) throw fieldError('itemType', TEXT.unknownItem);
    return itemType;
  };

  // The book is public, like an exchange's: anyone may see who offers what at which price.
  app.get(
    '/api/market/sell-offers/:itemType',
    {
      config: { auth: 'public' },
      schema: {
        summary: "An item's sell offers",
        operationId: 'listSellOffers',
        tags,
        params: ItemTypeParams,
        response: { 200: OfferList, 400: FieldErrors },
      },
    },
    async (req) => (await offers(ctx, knownItem(req.params.itemType), 'SELL')).map(presentOffer),
  );
  app.get(
    '/api/market/buy-offers/:itemType',
    {
      config: { auth: 'public' },
      schema: {
        summary: "An item's buy offers",
        operationId: 'listBuyOffers',
        tags,
        params: ItemTypeParams,
        response: { 200: OfferList, 400: FieldErrors },
      },
    },
    async (req) => (await offers(ctx, knownItem(req.params.itemType), 'BUY')).map(presentOffer),
  );

  app.get(
    '/api/trade-data/:itemType',
    {
      config: { auth: marketPolicy.rule('readTrades') },
      schema: {
        summary: "An item's price graph (unlocked per user)",
        operationId: 'getTradeData',
        tags,
        params: ItemTypeParams,
        response: { 200: TradeData, ...signedIn, 403: Message },
      },
    },
    async (req) => {
      const { last, months } = await tradeData(ctx, requireUser(req).id, knownItem(req.params.itemType));
      return presentTradeData(last, months);
    },
  );

  app.post(
    '/api/user/graph-item',
    {
      config: { auth: 'member' },
      schema: {
        summary: "Unlock an item's price graph for $1",
        operationId: 'unlockGraph',
        tags,
        body: GraphUnlockBody,
        response: { 200: Paid, ...signedIn, 402: Missing },
      },
    },
    async (req, reply) => {
      const userId = requireUser(req).id;
      return sendPaid(ctx, req, reply, userId, async (work) => {
        await unlockGraphs(work, userId);
        return {};
      });
    },
  );
}
