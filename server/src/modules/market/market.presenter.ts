import { isoTime } from '../../../../common/time';
import type { Offer, OrderAnswer, TradeData } from '../../../../common/api/market';
import type { Fill, MarketFigures, MonthOfTrades } from '../../../../common/market';
import type { MarketPosition } from '../../ledger/market';
import type { OfferRow, TradeRow } from './market.repository';

/** The fields of the market that leave the server. */

export function presentOrder(itemType: string, fills: Fill[], market: MarketFigures, me: MarketPosition): OrderAnswer {
  return {
    itemType,
    filled: fills.reduce((n, f) => n + f.quantity, 0),
    market,
    user: { quantity: me.quantity, sellOffer: me.sellOffer, buyOffer: me.buyOffer },
    balance: me.balance,
  };
}

export function presentOffer(r: OfferRow): Offer {
  return {
    offerId: r.id,
    id: r.id,
    userId: Number(r.user_id),
    username: r.username,
    price: r.price,
    quantity: r.quantity,
    since: isoTime(r.created_at),
  };
}

export function presentTradeData(last: TradeRow[], months: MonthOfTrades[]): TradeData {
  return {
    lastTenTrades: last.map((t) => ({ timestamp: isoTime(t.created_at), price: t.price })),
    twelveMonthsTrades: months,
  };
}
