import {
  BalanceAnswer,
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
import { FieldErrors, Message, Missing } from '../../../../common/api/shared';
import type { App, AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { fieldError } from '../../http/errors';
import { idempotent } from '../../http/idempotency';
import type { Work } from '../../db/unit-of-work';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  TEXT,
  marketBuy,
  placeBuyOffer,
  placeSellOffer,
  tradeWithUser,
  unlockGraphs,
  type OrderContext,
} from './market.commands';
import { offers, tradeData } from './market.service';

/** The market (SPEC §7 "Market and trading", DESIGN.md §8 "Market"): offers, trades and the price graphs. */
export async function marketRoutes(app: App, ctx: AppContext): Promise<void> {
  const tags = ['market'];
  const signedIn = { 400: FieldErrors, 401: Message };
  const order = (): OrderContext => ({ now: ctx.now(), feeBps: ctx.config.marketFeeBps });

  /** Runs a call that moves money or items under its Idempotency-Key and answers 200 with what it returns. */
  const moving =
    <T>(run: (work: Work, userId: number, req: FastifyRequest) => Promise<T>) =>
    async (req: FastifyRequest, reply: FastifyReply) => {
      const user = requireUser(req);
      const answer = await idempotent(ctx, req, user.id, async (work) => ({
        statusCode: 200,
        body: await run(work, user.id, req),
      }));
      return reply.code(answer.statusCode).send(answer.body);
    };

  app.post(
    '/api/market/generic-sell-offer',
    { schema: { tags, body: SellOfferBody, response: { 200: OrderAnswer, ...signedIn } } },
    moving((work, userId, req) => placeSellOffer(work, order(), { userId, ...(req.body as SellOfferBody) })),
  );

  app.post(
    '/api/market/generic-buy-offer',
    { schema: { tags, body: BuyOfferBody, response: { 200: OrderAnswer, ...signedIn, 402: Missing } } },
    moving((work, userId, req) => {
      const { itemType, price, quantity } = req.body as BuyOfferBody;
      return placeBuyOffer(work, order(), { userId, itemType, price, quantity });
    }),
  );

  app.post(
    '/api/market/buy',
    {
      schema: {
        tags,
        body: MarketBuyBody,
        response: { 200: OrderAnswer, ...signedIn, 402: Missing, 404: Message, 409: PriceMoved },
      },
    },
    moving((work, userId, req) => {
      const { itemType, requestedPrice } = req.body as MarketBuyBody;
      return marketBuy(work, order(), { userId, itemType, requestedPrice });
    }),
  );

  app.post(
    '/api/market/buy-from-user',
    {
      schema: {
        tags,
        body: BuyFromUserBody,
        response: { 200: OrderAnswer, ...signedIn, 402: Missing, 409: OfferMoved },
      },
    },
    moving((work, userId, req) => {
      const b = req.body as BuyFromUserBody;
      return tradeWithUser(work, order(), {
        userId,
        itemType: b.itemType,
        side: 'BUY',
        counterpartyId: b.userId,
        price: b.price,
      });
    }),
  );

  app.post(
    '/api/market/sell-to-user',
    { schema: { tags, body: SellToUserBody, response: { 200: OrderAnswer, ...signedIn, 409: OfferMoved } } },
    moving((work, userId, req) => {
      const b = req.body as SellToUserBody;
      return tradeWithUser(work, order(), {
        userId,
        itemType: b.itemType,
        side: 'SELL',
        counterpartyId: b.userId,
        price: b.price,
      });
    }),
  );

  const knownItem = (itemType: string) => {
    if (!itemOf(itemType)) throw fieldError('itemType', TEXT.unknownItem);
    return itemType;
  };

  // The book is public, like an exchange's: anyone may see who offers what at which price.
  app.get(
    '/api/market/sell-offers/:itemType',
    { schema: { tags, params: ItemTypeParams, response: { 200: OfferList, 400: FieldErrors } } },
    async (req) => offers(ctx, knownItem(req.params.itemType), 'SELL'),
  );
  app.get(
    '/api/market/buy-offers/:itemType',
    { schema: { tags, params: ItemTypeParams, response: { 200: OfferList, 400: FieldErrors } } },
    async (req) => offers(ctx, knownItem(req.params.itemType), 'BUY'),
  );

  app.get(
    '/api/trade-data/:itemType',
    { schema: { tags, params: ItemTypeParams, response: { 200: TradeData, ...signedIn, 403: Message } } },
    async (req) => tradeData(ctx, requireUser(req).id, knownItem(req.params.itemType)),
  );

  app.post(
    '/api/user/graph-item',
    { schema: { tags, body: GraphUnlockBody, response: { 200: BalanceAnswer, ...signedIn, 402: Missing } } },
    moving(async (work, userId) => ({ balance: await unlockGraphs(work, userId) })),
  );
}
