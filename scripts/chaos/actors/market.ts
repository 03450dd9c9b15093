import type { ItemDetails } from '../../../common/api/items';
import type { Offer, OrderAnswer } from '../../../common/api/market';
import { openLootboxes, randomInt, topUp } from '../steps';
import type { Actor, Session } from '../traffic';

/**
 * Traders on the market: each user opens a few lootboxes for items, then, from what GET /api/items/details shows,
 * places sell offers of letters it owns and buy offers of letters, priced around $1 so that about half cross and
 * trade, buys one unit at the best ask, takes one unit of another user's offer from the offers popup's list
 * (buy-from-user, sell-to-user: a 409 when that offer moved meanwhile), and cancels its offers now and then. Each
 * acknowledged order that traded must be its trades in the books (the units the answer said, no more unless an
 * order's outcome stayed unknown), and each trade a journal entry of its taker; the books' escrow, holds and uncrossed books are checked in verify.ts.
 */
export default function market(): Actor {
  /** Per user, as taker: what acknowledged orders said they filled, and what orders of unknown outcome could have. */
  const tally = new Map<string, Tally>();

  return {
    name: 'market',
    async run(t) {
      const worker = async () => {
        const session = await t.signUp();
        const mine: Tally = {
          buy: { units: 0, orders: 0, unknownUnits: 0, unknownOrders: 0 },
          sell: { units: 0, orders: 0, unknownUnits: 0, unknownOrders: 0 },
          cancels: 0,
        };
        tally.set(session.username, mine);
        await topUp(session, 20_000);
        await openLootboxes(session, 6);
        while (t.running) {
          const list = await session.settle('items', 'GET', '/api/items/details');
          if (list.status !== 200) continue;
          const letters = (list.body as ItemDetails[]).filter((i) => i.rarity === 1);
          const order = await trade(session, letters, mine);
          if (order?.status === 402) await topUp(session, 20_000);
        }
      };
      await Promise.all(Array.from({ length: 4 }, worker));
    },
    async verify(db) {
      const users = [...tally.keys()];
      const { rows } = await db.query<{
        username: string;
        bought: number;
        buys: number;
        sold: number;
        sells: number;
      }>(
        `SELECT u.username,
           (SELECT coalesce(sum(quantity), 0) FROM trades WHERE buyer_id = u.id AND taker_side = 'BUY')::int AS bought,
           (SELECT count(DISTINCT entry_id) FROM trades WHERE buyer_id = u.id AND taker_side = 'BUY')::int AS buys,
           (SELECT coalesce(sum(quantity), 0) FROM trades WHERE seller_id = u.id AND taker_side = 'SELL')::int AS sold,
           (SELECT count(DISTINCT entry_id) FROM trades WHERE seller_id = u.id AND taker_side = 'SELL')::int AS sells
         FROM users u WHERE u.username = ANY($1)`,
        [users],
      );
      const within = (n: number, side: Side) => n >= side.units && n <= side.units + side.unknownUnits;
      const off = rows.filter((r) => {
        const { buy, sell } = tally.get(r.username)!;
        return (
          !within(r.bought, buy) ||
          !within(r.sold, sell) ||
          r.buys < buy.orders ||
          r.buys > buy.orders + buy.unknownOrders ||
          r.sells < sell.orders ||
          r.sells > sell.orders + sell.unknownOrders
        );
      });
      // Every trade is its taker's ITEM_BUY or ITEM_SELL entry, and every such entry has its trades.
      const entries = await db.query<{ trades: number; units: number; wrong: number; bare: number }>(
        `SELECT (SELECT count(*) FROM trades)::int AS trades, (SELECT coalesce(sum(quantity), 0) FROM trades)::int AS units,
           (SELECT count(*) FROM trades t JOIN journal_entries j ON j.id = t.entry_id
             WHERE j.kind <> CASE t.taker_side WHEN 'BUY' THEN 'ITEM_BUY' ELSE 'ITEM_SELL' END
                OR j.user_id <> CASE t.taker_side WHEN 'BUY' THEN t.buyer_id ELSE t.seller_id END
                OR j.resource_id <> t.item_type)::int AS wrong,
           (SELECT count(*) FROM journal_entries j WHERE j.kind IN ('ITEM_BUY', 'ITEM_SELL')
             AND NOT EXISTS (SELECT 1 FROM trades t WHERE t.entry_id = j.id))::int AS bare`,
      );
      const e = entries.rows[0]!;
      const sides = [...tally.values()];
      const ackedOrders = sides.reduce((n, s) => n + s.buy.orders + s.sell.orders, 0);
      const ackedUnits = sides.reduce((n, s) => n + s.buy.units + s.sell.units, 0);
      return [
        {
          name: 'every acknowledged order that traded is its trades in the books, none twice',
          ok: off.length === 0 && rows.length === users.length,
          detail: `${ackedOrders} acknowledged orders traded ${ackedUnits} units as taker (by ${users.length} users, ${sides.reduce((n, s) => n + s.cancels, 0)} cancels acknowledged besides); ${off.length} users whose trades lie outside [acknowledged, + unknown]${off.length ? `: ${JSON.stringify(off.slice(0, 3))}` : ''}`,
        },
        {
          name: 'every trade is its taker’s journal entry, every market entry has its trades',
          ok: e.wrong === 0 && e.bare === 0,
          detail: `${e.trades} trades of ${e.units} units; ${e.wrong} on an entry of another kind, user or item, ${e.bare} ITEM_BUY or ITEM_SELL entries without trades`,
        },
      ];
    },
  };
}

interface Side {
  /** Units and orders acknowledged with `filled` > 0. */
  units: number;
  orders: number;
  /** Orders whose outcome stayed unknown, and the most units they could have traded. */
  unknownUnits: number;
  unknownOrders: number;
}

interface Tally {
  buy: Side;
  sell: Side;
  cancels: number;
}

const pick = <T>(xs: readonly T[]): T | undefined => xs[Math.floor(Math.random() * xs.length)];
/** About $1 give or take 10¢: a bid crosses an ask about half of the time. */
const price = () => randomInt(90, 110);

/** One order chosen from what the user and the market hold now; undefined when there was nothing to do. */
async function trade(session: Session, letters: ItemDetails[], mine: Tally) {
  const owned = letters.filter((i) => i.user.quantity > 0);
  const onSale = letters.filter((i) => i.market.bestSo !== null && i.market.bestSo <= 115);
  const offers = letters.flatMap((i) => [
    ...(i.user.sellOffer ? [{ itemType: i.itemType, side: 'sell' as const }] : []),
    ...(i.user.buyOffer ? [{ itemType: i.itemType, side: 'buy' as const }] : []),
  ]);
  const roll = Math.random();
  if (roll < 0.35) {
    const item = pick(owned);
    if (!item) return undefined;
    const quantity = randomInt(1, Math.min(5, item.user.quantity));
    return order(session, 'sell-offer', '/api/market/generic-sell-offer', mine.sell, quantity, {
      itemType: item.itemType,
      quantity,
      price: price(),
    });
  }
  if (roll < 0.7) {
    const item = pick(onSale.length > 0 && Math.random() < 0.6 ? onSale : letters)!;
    const quantity = randomInt(1, 5);
    return order(session, 'buy-offer', '/api/market/generic-buy-offer', mine.buy, quantity, {
      itemType: item.itemType,
      quantity,
      price: price(),
      balance: 0,
    });
  }
  if (roll < 0.78) {
    // Not where the best ask is the user's own: a market buy skips it and finds nobody else (404).
    const item = pick(onSale.filter((i) => i.user.sellOffer?.price !== i.market.bestSo));
    if (!item) return undefined;
    return order(session, 'market-buy', '/api/market/buy', mine.buy, 1, {
      itemType: item.itemType,
      requestedPrice: item.market.bestSo,
      balance: 0,
    });
  }
  if (roll < 0.85) {
    // One unit of another user's offer at the price the list showed, as the offers popup's Buy and Sell buttons do.
    const buying = Math.random() < 0.5;
    const item = pick(
      buying
        ? onSale
        : letters.filter((i) => i.market.bestBo !== null && i.user.quantity > (i.user.sellOffer?.quantity ?? 0)),
    );
    if (!item) return undefined;
    const list = await session.settle(
      'offers',
      'GET',
      `/api/market/${buying ? 'sell' : 'buy'}-offers/${item.itemType}`,
    );
    const theirs =
      list.status === 200 ? pick((list.body as Offer[]).filter((o) => o.username !== session.username)) : undefined;
    if (!theirs) return undefined;
    return buying
      ? order(session, 'buy-from-user', '/api/market/buy-from-user', mine.buy, 1, {
          itemType: item.itemType,
          price: theirs.price,
          userId: theirs.userId,
          balance: 0,
        })
      : order(session, 'sell-to-user', '/api/market/sell-to-user', mine.sell, 1, {
          itemType: item.itemType,
          price: theirs.price,
          userId: theirs.userId,
        });
  }
  const offer = pick(offers);
  if (!offer) return undefined;
  const path = offer.side === 'sell' ? '/api/market/generic-sell-offer' : '/api/market/generic-buy-offer';
  const answer = await session.pay('cancel', 'POST', path, {
    json: { itemType: offer.itemType, quantity: 0, price: 0 },
  });
  if (answer.status === 200) mine.cancels++;
  return answer;
}

/** An order under a fresh Idempotency-Key, tallied on the side it takes from the book. */
async function order(session: Session, kind: string, path: string, side: Side, quantity: number, json: unknown) {
  const answer = await session.pay(kind, 'POST', path, { json });
  if (answer.status === 200) {
    const filled = (answer.body as OrderAnswer).filled;
    if (filled > 0) {
      side.units += filled;
      side.orders++;
    }
  } else if (answer.status === 0 || answer.status === 503) {
    side.unknownUnits += quantity;
    side.unknownOrders++;
  }
  return answer;
}
