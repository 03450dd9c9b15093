import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ItemDetails } from '../../../../common/api/items';
import type { Offer, OrderAnswer, TradeData } from '../../../../common/api/market';
import type { Odds } from '../../../../common/api/lootboxes';
import type { LiveEvent } from '../../../../common/live';
import { sqlRows } from '../../db/connection';
import { checkConservation } from '../../ledger/conservation';
import { availableBalance } from '../../ledger/ledger';
import { giveItems, makeUser, signIn } from '../../test/factories';
import { figuresSql } from './market.repository';
import { startTestApp, type TestApp, type TestClient } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/* Each test trades its own item, so the books of one test never meet another's. */
const A = 'COMMON_LETTER_A';
const B = 'COMMON_LETTER_B';
const C = 'COMMON_LETTER_C';
const D = 'COMMON_LETTER_D';
const E = 'COMMON_LETTER_E';
const F = 'COMMON_LETTER_F';
const G = 'COMMON_LETTER_G';
const H = 'COMMON_LETTER_H';
const I = 'COMMON_LETTER_I';
const J = 'COMMON_LETTER_J';
const K = 'COMMON_LETTER_K';
const L = 'COMMON_LETTER_L';
const M = 'COMMON_LETTER_M';

interface Trader {
  id: number;
  username: string;
  client: TestClient;
}

async function trader(balance = 0, items: Record<string, number> = {}): Promise<Trader> {
  const user = await makeUser(t.ctx, { balance });
  for (const [itemType, n] of Object.entries(items)) await giveItems(t.ctx, user.id, itemType, n);
  return { ...user, client: await signIn(t, user.id) };
}

/**
 * Every order's answer must say what a fresh read says: the item's market and the taker's position as the item
 * details show them right after, and the balance the ledger holds.
 */
async function order(u: Trader, path: string, body: Record<string, unknown>, headers?: Record<string, string>) {
  const res = await u.client.post(`/api/market/${path}`, body, headers);
  if (res.statusCode === 200) {
    const answer = res.json<OrderAnswer>();
    const fresh = await details(u, answer.itemType);
    expect({ market: answer.market, user: answer.user }, `${path} ${JSON.stringify(body)}`).toEqual({
      market: fresh.market,
      user: fresh.user,
    });
    expect(answer.balance).toBe(await balance(u));
  }
  return res;
}

const sell = (u: Trader, itemType: string, quantity: number, price: number, headers?: Record<string, string>) =>
  order(u, 'generic-sell-offer', { itemType, quantity, price }, headers);
const bid = (u: Trader, itemType: string, quantity: number, price: number, headers?: Record<string, string>) =>
  order(u, 'generic-buy-offer', { itemType, quantity, price, balance: 0 }, headers);
const marketBuy = (u: Trader, itemType: string, requestedPrice: number) =>
  order(u, 'buy', { itemType, requestedPrice, balance: 0 });
const buyFrom = (u: Trader, itemType: string, seller: Trader, price: number) =>
  order(u, 'buy-from-user', { itemType, price, userId: seller.id, balance: 0 });
const sellTo = (u: Trader, itemType: string, buyer: Trader, price: number) =>
  order(u, 'sell-to-user', { itemType, price, userId: buyer.id });
const asks = async (itemType: string) => (await t.client().get(`/api/market/sell-offers/${itemType}`)).json<Offer[]>();
const bids = async (itemType: string) => (await t.client().get(`/api/market/buy-offers/${itemType}`)).json<Offer[]>();
const details = async (u: Trader, itemType: string) =>
  (await u.client.get('/api/items/details')).json<ItemDetails[]>().find((i) => i.itemType === itemType)!;
const balance = (u: Trader) => availableBalance(t.ctx.db, u.id);
const escrow = async (u: Trader) =>
  (
    await sqlRows(
      t.ctx.db,
      sql<{ balance: number }>`SELECT balance FROM ledger_accounts WHERE code = ${`user:${u.id}:escrow`}`,
    )
  )[0]!.balance;
const owned = async (u: Trader, itemType: string) => (await details(u, itemType)).user.quantity;
const booksBalance = async () => expect(await checkConservation(t.ctx.db)).toMatchObject({ ok: true });

describe('offers rest in the book and hold what they promise', () => {
  it('a sell offer holds its units, shows in the book and in the item details, and can be cancelled', async () => {
    const seller = await trader(0, { [A]: 3 });
    const res = await sell(seller, A, 2, 150);
    expect(res.statusCode).toBe(200);
    expect(res.json<OrderAnswer>()).toMatchObject({
      itemType: A,
      filled: 0,
      market: { quantity: 2, bestSo: 150, bestBo: null },
      user: { quantity: 3, sellOffer: { price: 150, quantity: 2 }, buyOffer: null },
    });
    expect(await asks(A)).toEqual([
      expect.objectContaining({ userId: seller.id, username: seller.username, price: 150, quantity: 2 }),
    ]);
    expect(await details(seller, A)).toMatchObject({
      market: { quantity: 2, bestSo: 150 },
      user: { quantity: 3, sellOffer: { price: 150, quantity: 2 } },
    });
    // Only one unit is free: a second offer elsewhere cannot use the held ones.
    const third = await trader(1_000);
    await bid(third, A, 1, 100);
    expect((await sellTo(seller, A, third, 100)).statusCode).toBe(200);
    expect((await sellTo(seller, A, third, 100)).statusCode).toBe(409); // the bid is filled and gone
    await bid(third, A, 1, 100);
    const allHeld = await sellTo(seller, A, third, 100);
    expect(allHeld.statusCode).toBe(400);
    expect(allHeld.json()[0].field).toBe('itemType');

    expect((await sell(seller, A, 0, 0)).json<OrderAnswer>().user.sellOffer).toBeNull();
    expect(await asks(A)).toEqual([]);
    await booksBalance();
  });

  it('a buy offer escrows price × quantity; replacing returns the old escrow, cancelling returns it all', async () => {
    const buyer = await trader(1_000);
    expect((await bid(buyer, B, 4, 100)).json<OrderAnswer>()).toMatchObject({
      filled: 0,
      market: { bestBo: 100 },
      user: { buyOffer: { price: 100, quantity: 4 } },
      balance: 600,
    });
    expect(await escrow(buyer)).toBe(400);
    // A replacement may use the old escrow: 9 × 100 = 900 ≤ 600 + 400.
    expect((await bid(buyer, B, 9, 100)).json<OrderAnswer>().balance).toBe(100);
    expect(await escrow(buyer)).toBe(900);
    expect((await bid(buyer, B, 1, 30)).json<OrderAnswer>().balance).toBe(970);
    expect(await bids(B)).toEqual([expect.objectContaining({ userId: buyer.id, price: 30, quantity: 1 })]);
    const cancelled = await buyer.client.post('/api/market/generic-buy-offer', {
      itemType: B,
      quantity: 0,
      price: 0,
      balance: 0,
    });
    expect(cancelled.json<OrderAnswer>()).toMatchObject({ balance: 1_000, user: { buyOffer: null } });
    expect(await escrow(buyer)).toBe(0);
    // Cancelling again, with no offer, changes nothing and succeeds.
    expect((await bid(buyer, B, 0, 0)).statusCode).toBe(200);
    expect(await balance(buyer)).toBe(1_000);
    await booksBalance();
  });

  it('a new sell offer releases the old one first, so it may offer every unit owned, and no more', async () => {
    const seller = await trader(0, { [C]: 3 });
    await sell(seller, C, 2, 500);
    expect((await sell(seller, C, 3, 400)).json<OrderAnswer>().user.sellOffer).toMatchObject({ quantity: 3 });
    const tooMany = await sell(seller, C, 4, 400);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toEqual([{ field: 'quantity', errorText: 'You own only 3.' }]);
    expect(await asks(C)).toEqual([expect.objectContaining({ price: 400, quantity: 3 })]);
    await booksBalance();
  });
});

describe('matching', () => {
  it('a bid that crosses a resting ask fills at the ask and keeps the difference', async () => {
    const seller = await trader(0, { [D]: 5 });
    const buyer = await trader(1_000);
    await sell(seller, D, 5, 60);
    const res = (await bid(buyer, D, 2, 100)).json<OrderAnswer>();
    expect(res).toMatchObject({ filled: 2, balance: 880, user: { quantity: 2, buyOffer: null } });
    expect(await balance(seller)).toBe(120);
    expect(await escrow(buyer)).toBe(0);
    expect(await asks(D)).toEqual([expect.objectContaining({ quantity: 3, price: 60 })]);
    expect(await owned(seller, D)).toBe(3);
    await booksBalance();
  });

  it('an ask that crosses a resting bid fills at the bid, paid from its escrow', async () => {
    const seller = await trader(0, { [E]: 2 });
    const buyer = await trader(1_000);
    await bid(buyer, E, 3, 80);
    const res = (await sell(seller, E, 2, 50)).json<OrderAnswer>();
    expect(res).toMatchObject({ filled: 2, balance: 160, user: { quantity: 0, sellOffer: null } });
    expect(await escrow(buyer)).toBe(80);
    expect(await balance(buyer)).toBe(760);
    expect(await bids(E)).toEqual([expect.objectContaining({ userId: buyer.id, quantity: 1, price: 80 })]);
    expect(await owned(buyer, E)).toBe(2);
    await booksBalance();
  });

  it('takes the best price first, then the oldest, and rests what is left at its own price', async () => {
    const [a, b, c] = [await trader(0, { [F]: 1 }), await trader(0, { [F]: 1 }), await trader(0, { [F]: 1 })];
    await sell(a, F, 1, 50);
    await sell(b, F, 1, 40);
    await sell(c, F, 1, 40);
    const buyer = await trader(1_000);
    const res = (await bid(buyer, F, 3, 45)).json<OrderAnswer>();
    expect(res).toMatchObject({
      filled: 2,
      market: { bestSo: 50, bestBo: 45 },
      user: { buyOffer: { price: 45, quantity: 1 } },
    });
    expect([await balance(a), await balance(b), await balance(c)]).toEqual([0, 40, 40]);
    expect(await balance(buyer)).toBe(1_000 - 80 - 45);
    await booksBalance();
  });

  it('never trades with oneself: the own ask is skipped and stays, and the bid rests', async () => {
    const me = await trader(1_000, { [G]: 2 });
    const other = await trader(0, { [G]: 1 });
    await sell(me, G, 2, 30);
    await sell(other, G, 1, 35);
    const res = (await bid(me, G, 2, 40)).json<OrderAnswer>();
    expect(res).toMatchObject({
      filled: 1,
      user: { sellOffer: { price: 30, quantity: 2 }, buyOffer: { price: 40, quantity: 1 } },
    });
    expect(await balance(other)).toBe(35);
    // Own offers are not actionable either.
    expect((await buyFrom(me, G, me, 30)).json()[0].field).toBe('userId');
    expect((await sellTo(me, G, me, 40)).statusCode).toBe(400);
    expect((await marketBuy(me, G, 1_000)).statusCode).toBe(404); // nobody else sells
    await booksBalance();
  });

  it('a market buy takes one unit from the best other seller, or answers 409 with its price, or 404', async () => {
    const seller = await trader(0, { [H]: 2 });
    const buyer = await trader(1_000);
    expect((await marketBuy(buyer, H, 100)).statusCode).toBe(404);
    await sell(seller, H, 2, 120);
    const moved = await marketBuy(buyer, H, 100);
    expect(moved.statusCode).toBe(409);
    expect(moved.json()).toMatchObject({ bestSo: 120 });
    expect((await marketBuy(buyer, H, 120)).json<OrderAnswer>()).toMatchObject({ filled: 1, balance: 880 });
    expect(await balance(seller)).toBe(120);
    await booksBalance();
  });

  it('buy-from-user and sell-to-user take one unit of that offer at its current price', async () => {
    const seller = await trader(0, { [I]: 3 });
    const buyer = await trader(1_000, {});
    await sell(seller, I, 2, 70);
    const stale = await buyFrom(buyer, I, seller, 60);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ price: 70 });
    expect((await buyFrom(buyer, I, seller, 70)).json<OrderAnswer>()).toMatchObject({ filled: 1, balance: 930 });
    await bid(buyer, I, 1, 65);
    expect((await sellTo(seller, I, buyer, 65)).json<OrderAnswer>()).toMatchObject({ filled: 1, balance: 135 });
    const gone = await sellTo(seller, I, buyer, 65);
    expect(gone.statusCode).toBe(409);
    expect(gone.json()).toMatchObject({ price: null });
    expect(await owned(buyer, I)).toBe(2);
    await booksBalance();
  });
});

describe('refusals change nothing', () => {
  it('402 with what is missing when a bid is one cent short, or a market buy is', async () => {
    const seller = await trader(0, { [J]: 1 });
    await sell(seller, J, 1, 300);
    const buyer = await trader(599);
    const short = await bid(buyer, J, 2, 300);
    expect(short.statusCode).toBe(402);
    expect(short.json()).toEqual({ missing: 1 });
    const poor = await trader(299);
    expect((await marketBuy(poor, J, 300)).json()).toEqual({ missing: 1 });
    expect((await buyFrom(poor, J, seller, 300)).json()).toEqual({ missing: 1 });
    expect([await balance(buyer), await balance(poor), await owned(seller, J)]).toEqual([599, 299, 1]);
    expect(await asks(J)).toHaveLength(1);
    await booksBalance();
  });

  it('400 on bad input, naming the field', async () => {
    const u = await trader(1_000, { [K]: 1 });
    const cases: [unknown, string][] = [
      [{ itemType: 'NOPE', quantity: 1, price: 1 }, 'itemType'],
      [{ itemType: K, quantity: 1, price: 0 }, 'price'],
      [{ itemType: K, quantity: 0, price: 10 }, 'quantity'],
      [{ itemType: K, quantity: -1, price: 10 }, 'quantity'],
      [{ itemType: K, quantity: 1000, price: 10 }, 'quantity'],
      [{ itemType: K, quantity: 1, price: 1.5 }, 'price'],
      [{ itemType: K, quantity: '1', price: 10 }, 'quantity'],
      [{ itemType: K, quantity: 1, price: 100_000_000 }, 'price'],
      [{ quantity: 1, price: 10 }, 'itemType'],
    ];
    for (const [body, field] of cases) {
      for (const path of ['/api/market/generic-sell-offer', '/api/market/generic-buy-offer']) {
        const res = await u.client.post(path, body as Record<string, unknown>);
        expect(res.statusCode, `${path} ${JSON.stringify(body)}`).toBe(400);
        expect(res.json()[0].field, `${path} ${JSON.stringify(body)}`).toBe(field);
      }
    }
    expect((await u.client.get('/api/market/sell-offers/NOPE')).statusCode).toBe(400);
    expect(await balance(u)).toBe(1_000);
    expect(await bids(K)).toEqual([]);
    expect(await asks(K)).toEqual([]);
  });

  it('401 to visitors on every call that needs a user', async () => {
    const visitor = t.client();
    const body = { itemType: A, quantity: 1, price: 10, requestedPrice: 10, userId: 1 };
    for (const [path, keys] of [
      ['generic-sell-offer', ['itemType', 'quantity', 'price']],
      ['generic-buy-offer', ['itemType', 'quantity', 'price']],
      ['buy', ['itemType', 'requestedPrice']],
      ['buy-from-user', ['itemType', 'price', 'userId']],
      ['sell-to-user', ['itemType', 'price', 'userId']],
    ] as const) {
      const valid = Object.fromEntries(keys.map((k) => [k, body[k]]));
      expect((await visitor.post(`/api/market/${path}`, valid)).statusCode, path).toBe(401);
    }
    expect((await visitor.get(`/api/trade-data/${A}`)).statusCode).toBe(401);
    expect((await visitor.post('/api/user/graph-item', {})).statusCode).toBe(401);
    expect((await visitor.get(`/api/market/sell-offers/${A}`)).statusCode).toBe(200);
  });

  it("a stranger's cancel or order never touches another user's offer", async () => {
    const owner = await trader(1_000, { [L]: 2 });
    await sell(owner, L, 2, 90);
    await bid(owner, L, 1, 20);
    const stranger = await trader(1_000);
    await sell(stranger, L, 0, 0);
    await bid(stranger, L, 0, 0);
    expect((await buyFrom(stranger, L, owner, 20)).statusCode).toBe(409); // owner's ask is 90, not 20
    expect((await sellTo(stranger, L, owner, 20)).statusCode).toBe(400); // the stranger owns no L
    expect((await details(owner, L)).user).toMatchObject({ sellOffer: { quantity: 2 }, buyOffer: { quantity: 1 } });
    await booksBalance();
  });

  it('a replay with the same Idempotency-Key trades once and answers the same', async () => {
    const seller = await trader(0, { [M]: 3 });
    const buyer = await trader(1_000);
    await sell(seller, M, 3, 100);
    const key = { 'idempotency-key': `bid-once-${buyer.id}` };
    const first = await bid(buyer, M, 2, 100, key);
    const again = await bid(buyer, M, 2, 100, key);
    expect(again.json()).toEqual(first.json());
    expect(await balance(buyer)).toBe(800);
    expect(await owned(buyer, M)).toBe(2);
    await booksBalance();
  });
});

describe('what the market tells', () => {
  it('sends the public update to every subscriber and one message with the user fields to each trader', async () => {
    const item = 'COMMON_LETTER_N';
    const seller = await trader(0, { [item]: 2 });
    const buyer = await trader(500);
    const seen: LiveEvent[] = [];
    const off = t.ctx.bus.subscribe((e) => e.ch === 'market' && seen.push(e));
    await sell(seller, item, 2, 100);
    await bid(buyer, item, 1, 100);
    off();
    expect(seen).toHaveLength(5);
    const [sellerOnOffer, publicOnOffer, ...onTrade] = seen;
    expect(sellerOnOffer).toMatchObject({
      userId: seller.id,
      m: {
        itemType: item,
        marketQuantity: 2,
        marketQuantityDelta: true,
        bestSo: 100,
        bestSoDelta: true,
        bestBoDelta: false,
        userSellOfferDelta: true,
        userBuyOfferDelta: false,
        userQuantityDelta: false,
      },
    });
    expect(publicOnOffer).toMatchObject({ except: [seller.id], m: { marketQuantity: 2, bestSo: 100 } });
    expect(publicOnOffer!.m).not.toHaveProperty('userQuantity');
    const toBuyer = onTrade.find((e) => e.userId === buyer.id)!;
    expect(toBuyer.m).toMatchObject({
      marketQuantity: 1,
      userQuantity: 1,
      userQuantityDelta: true,
      userBuyOfferDelta: false,
    });
    const toSeller = onTrade.find((e) => e.userId === seller.id)!;
    expect(toSeller.m).toMatchObject({ userQuantity: 1, userSellOffer: { quantity: 1 }, userSellOfferDelta: true });
    expect([...onTrade.find((e) => e.except)!.except!].sort()).toEqual([buyer.id, seller.id].sort());
    // The seller's balance arrives on their own balance channel as for any payment.
  });

  it('records each fill as a trade and tells the maker (ITEM_SOLD / ITEM_BOUGHT)', async () => {
    const item = 'COMMON_LETTER_O';
    const seller = await trader(0, { [item]: 2 });
    const buyer = await trader(500);
    await sell(seller, item, 1, 100);
    await bid(buyer, item, 1, 100); // the seller's offer sold
    await bid(buyer, item, 1, 90);
    await sell(seller, item, 1, 50); // the buyer's offer bought, at 90
    const trades = await sqlRows(
      t.ctx.db,
      sql<{
        buyer_id: number;
        seller_id: number;
        price: number;
        taker_side: string;
      }>`SELECT buyer_id, seller_id, price, taker_side FROM trades WHERE item_type = ${item} ORDER BY id`,
    );
    expect(trades.map((r) => [Number(r.buyer_id), Number(r.seller_id), r.price, r.taker_side])).toEqual([
      [buyer.id, seller.id, 100, 'BUY'],
      [buyer.id, seller.id, 90, 'SELL'],
    ]);
    const events = await sqlRows(
      t.ctx.db,
      sql<{
        user_id: number;
        topic: string;
        amount: number;
        item: string;
      }>`SELECT user_id, topic, amount, item FROM notification_events WHERE item = ${item} ORDER BY id`,
    );
    expect(events.map((e) => [Number(e.user_id), e.topic, e.amount])).toEqual([
      [seller.id, 'ITEM_SOLD', 100],
      [buyer.id, 'ITEM_BOUGHT', 90],
    ]);
  });

  it('the elusive lootbox weight falls with the elusive units really on sale', async () => {
    const elusive = 'ELUSIVE_EMOJI_UNICORN';
    const before = (await t.client().get('/api/lootbox/odds')).json<Odds>().elusiveOnSale;
    const seller = await trader(0, { [elusive]: 3 });
    await sell(seller, elusive, 3, 10_000);
    const odds = (await t.client().get('/api/lootbox/odds')).json<Odds>();
    expect(odds.elusiveOnSale).toBe(before + 3);
    expect(odds.tiers.find((x) => x.rarity === 'ELUSIVE')!.weight).toBe(Math.floor(100_000 / (1 + before + 3)));
    await sell(seller, elusive, 0, 0);
  });
});

describe('graphs', () => {
  it('are locked (403) until the user pays $1 once; then the trades show, newest first and by month', async () => {
    const item = 'COMMON_LETTER_P';
    const seller = await trader(0, { [item]: 3 });
    const buyer = await trader(1_000);
    await sell(seller, item, 3, 100);
    await marketBuy(buyer, item, 100);
    await sell(seller, item, 2, 200);
    await bid(buyer, item, 2, 200);
    expect((await buyer.client.get(`/api/trade-data/${item}`)).statusCode).toBe(403);

    const poor = await trader(99);
    const short = await poor.client.post('/api/user/graph-item', { balance: 99 });
    expect(short.statusCode).toBe(402);
    expect(short.json()).toEqual({ missing: 1 });

    expect((await buyer.client.post('/api/user/graph-item', { balance: 500 })).json()).toEqual({ balance: 400 });
    expect((await buyer.client.post('/api/user/graph-item', { balance: 400 })).json()).toEqual({ balance: 400 });
    const data = (await buyer.client.get(`/api/trade-data/${item}`)).json<TradeData>();
    expect(data.lastTenTrades.map((x) => x.price)).toEqual([200, 100]);
    expect(data.twelveMonthsTrades).toHaveLength(12);
    const thisMonth = data.twelveMonthsTrades[11]!;
    expect(thisMonth).toEqual({
      label: new Date().toISOString().slice(0, 7),
      averagePrice: 167, // (100 + 2 × 200) / 3 units, rounded
      lowestPrice: 100,
      highestPrice: 200,
      volume: 3,
    });
    expect(data.twelveMonthsTrades[0]).toMatchObject({ volume: 0, averagePrice: null });
    await booksBalance();
  });
});

describe('query plans', () => {
  it("an item's figures walk that item's two sides by index, never the whole book table", async () => {
    const seller = await trader(0, { [M]: 2 });
    await sell(seller, M, 2, 300);
    const plan = await t.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      return (await sqlRows(tx, sql<{ 'QUERY PLAN': string }>`EXPLAIN ${figuresSql(M)}`))
        .map((r) => r['QUERY PLAN'])
        .join('\n');
    });
    // Each side through its partial index, found by the item: not a scan of every offer filtered afterwards.
    expect(plan).toMatch(/market_offers_asks on market_offers[^\n]*\n\s*Index Cond: \(item_type = /);
    expect(plan).toMatch(/market_offers_bids on market_offers[^\n]*\n\s*Index Cond: \(item_type = /);
    expect(plan).not.toMatch(/Seq Scan on market_offers|market_offers_(pkey|one_per_side)/);
  });
});
