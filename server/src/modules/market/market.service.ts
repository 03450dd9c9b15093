import {
  LAST_TRADES,
  MONTHS,
  monthStart,
  twelveMonths,
  type MarketFigures,
  type MonthOfTrades,
  type Side,
  type StandingOffer,
} from '../../../../common/market';
import { isoTime } from '../../../../common/time';
import type { AppContext } from '../../context';
import * as market from './market.repository';
import { marketPolicy } from './market.policy';

/** How many offers a popup lists: the best ones. */
export const OFFER_LIST_LIMIT = 100;

/** The offers of one side of an item's book, best price first, then oldest. */
export function offers(ctx: AppContext, itemType: string, side: Side): Promise<market.OfferRow[]> {
  return market.offersOn(ctx.reads.lagTolerant(), itemType, side, OFFER_LIST_LIMIT);
}

/** Every item's market figures (items without offers are absent). */
export function marketFigures(ctx: Pick<AppContext, 'reads'>): Promise<Map<string, MarketFigures>> {
  return market.marketFigures(ctx.reads.lagTolerant());
}

/** A user's standing offers per item. */
export async function offersOfUser(
  ctx: Pick<AppContext, 'reads'>,
  userId: number,
): Promise<Map<string, { sellOffer: StandingOffer | null; buyOffer: StandingOffer | null }>> {
  const mine = new Map<string, { sellOffer: StandingOffer | null; buyOffer: StandingOffer | null }>();
  for (const r of await market.offersOfUser(ctx.reads.current(), userId)) {
    const entry = mine.get(r.item_type) ?? { sellOffer: null, buyOffer: null };
    const offer = { price: r.price, quantity: r.quantity, since: isoTime(r.created_at) };
    if (r.side === 'SELL') entry.sellOffer = offer;
    else entry.buyOffer = offer;
    mine.set(r.item_type, entry);
  }
  return mine;
}

/** GET /api/trade-data/{itemType}: 403 until the user unlocked the graphs (docs/product.md#graphs). */
export async function tradeData(
  ctx: AppContext,
  userId: number,
  itemType: string,
): Promise<{ last: market.TradeRow[]; months: MonthOfTrades[] }> {
  marketPolicy.authorize({ id: userId }, 'readTrades', {
    unlocked: await market.hasUnlockedGraphs(ctx.reads.current(), userId),
  });
  const now = ctx.now();
  const [last, months] = await Promise.all([
    market.lastTrades(ctx.reads.lagTolerant(), itemType, LAST_TRADES),
    market.monthlyTrades(ctx.reads.lagTolerant(), itemType, monthStart(now, MONTHS - 1)),
  ]);
  return {
    last,
    months: twelveMonths(
      now,
      months.map((m) => ({
        label: m.label,
        averagePrice: Number(m.average),
        lowestPrice: m.lowest,
        highestPrice: m.highest,
        volume: m.volume,
      })),
    ),
  };
}
