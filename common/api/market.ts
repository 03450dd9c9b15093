import { Type, type Static } from 'typebox';
import { MAX_OFFER_QUANTITY, MAX_PRICE } from '../market';
import { OwnOffer } from './items';
import { Nullable, paidAnswer } from './shared';

/*
 * The market's calls (docs/product.md#market). Prices are integer cents. Bodies allow
 * 0 so that `price: 0, quantity: 0` cancels; the routes refuse any other 0 with a 400 naming the field.
 */

const ItemType = Type.String({ minLength: 1, maxLength: 64, description: 'An item code, e.g. COMMON_LETTER_A' });
const Price = Type.Integer({ minimum: 0, maximum: MAX_PRICE, description: 'Cents; 0 only to cancel' });
const Quantity = Type.Integer({ minimum: 0, maximum: MAX_OFFER_QUANTITY, description: 'Units; 0 only to cancel' });
/** The client's view of its balance: carried by the API's payloads, never trusted (docs/product.md#money). */
const Balance = Type.Optional(Type.Unknown());

export const ItemTypeParams = Type.Object({ itemType: ItemType });
export type ItemTypeParams = Static<typeof ItemTypeParams>;

/** POST /api/market/generic-sell-offer: create or replace the caller's sell offer; 0 and 0 cancel it. */
export const SellOfferBody = Type.Object({ itemType: ItemType, quantity: Quantity, price: Price });
export type SellOfferBody = Static<typeof SellOfferBody>;

/** POST /api/market/generic-buy-offer: create or replace the caller's buy offer; 0 and 0 cancel it. */
export const BuyOfferBody = Type.Object({ itemType: ItemType, quantity: Quantity, price: Price, balance: Balance });
export type BuyOfferBody = Static<typeof BuyOfferBody>;

/** POST /api/market/buy: one unit from the best other seller, at most `requestedPrice`. */
export const MarketBuyBody = Type.Object({
  itemType: ItemType,
  requestedPrice: Type.Integer({ minimum: 1, maximum: MAX_PRICE }),
  balance: Balance,
});
export type MarketBuyBody = Static<typeof MarketBuyBody>;

const UserId = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });

/** POST /api/market/buy-from-user: one unit of that user's sell offer, whose price must still be `price`. */
export const BuyFromUserBody = Type.Object({
  itemType: ItemType,
  price: Type.Integer({ minimum: 1, maximum: MAX_PRICE }),
  userId: UserId,
  balance: Balance,
});
export type BuyFromUserBody = Static<typeof BuyFromUserBody>;

/** POST /api/market/sell-to-user: one unit, not already offered, to that user's buy offer at `price`. */
export const SellToUserBody = Type.Object({
  itemType: ItemType,
  price: Type.Integer({ minimum: 1, maximum: MAX_PRICE }),
  userId: UserId,
});
export type SellToUserBody = Static<typeof SellToUserBody>;

/** The item's market and the caller's side of it after an order (the same shapes as GET /api/items/details). */
export const MarketFigures = Type.Object({
  quantity: Type.Integer({ description: 'Units on sale' }),
  bestSo: Nullable(Type.Integer()),
  bestBo: Nullable(Type.Integer()),
});
export const UserPosition = Type.Object({
  quantity: Type.Integer({ description: 'Units owned, those held by the sell offer included' }),
  sellOffer: Nullable(OwnOffer),
  buyOffer: Nullable(OwnOffer),
});

/** The answer of every order: what traded, and the state after it. */
export const OrderAnswer = paidAnswer(
  Type.Object({
    itemType: Type.String(),
    /** Units that changed hands in this order (0 when it only rested or cancelled). */
    filled: Type.Integer(),
    market: MarketFigures,
    user: UserPosition,
  }),
);
export type OrderAnswer = Static<typeof OrderAnswer>;

/** 409 of a market buy: the best other seller asks more than `requestedPrice`. */
export const PriceMoved = Type.Object({ message: Type.String(), bestSo: Nullable(Type.Integer()) });
export type PriceMoved = Static<typeof PriceMoved>;

/** 409 of buy-from-user and sell-to-user: that offer is gone (`price` null) or now asks `price`. */
export const OfferMoved = Type.Object({ message: Type.String(), price: Nullable(Type.Integer()) });
export type OfferMoved = Static<typeof OfferMoved>;

/** GET /api/market/sell-offers/{itemType} and buy-offers/{itemType}: best price first, then oldest. */
export const Offer = Type.Object({
  offerId: Type.Integer(),
  /** The same as offerId (the API names both). */
  id: Type.Integer(),
  userId: Type.Integer(),
  username: Type.String(),
  price: Type.Integer(),
  quantity: Type.Integer(),
  since: Type.String({ description: 'ISO 8601' }),
});
export type Offer = Static<typeof Offer>;
export const OfferList = Type.Array(Offer);

/** GET /api/trade-data/{itemType}: 403 until the caller unlocked the graphs. */
export const TradeData = Type.Object({
  /** Newest first. */
  lastTenTrades: Type.Array(Type.Object({ timestamp: Type.String(), price: Type.Integer() })),
  /** The last 12 months, oldest first; a month without trades has volume 0 and null prices. */
  twelveMonthsTrades: Type.Array(
    Type.Object({
      label: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}$' }),
      averagePrice: Nullable(Type.Integer()),
      lowestPrice: Nullable(Type.Integer()),
      highestPrice: Nullable(Type.Integer()),
      volume: Type.Integer(),
    }),
  ),
});
export type TradeData = Static<typeof TradeData>;

/** POST /api/user/graph-item: unlock every item's graphs for $1, once; answers the balance after it (`Paid`). */
export const GraphUnlockBody = Type.Object({ balance: Balance });
