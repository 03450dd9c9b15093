import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemName } from '../../../common/items';
import { matchOrder, type Fill, type RestingOffer, type Side } from '../../../common/market';
import { formatMoney } from '../../../common/money';
import { notificationPush } from '../../../common/push-messages';
import { sqlRows, type Columns } from '../db/connection';
import type { Events } from '../db/one-call';
import type { marketOffers } from '../modules/market/market.tables';
import { giveItems, makeUser } from '../test/factories';
import { startTestApp, type TestApp } from '../test/harness';
import { mulberry32 } from '../test/random';
import { checkConservation } from './conservation';
import { InsufficientItems } from './items';
import { InsufficientFunds, availableBalance } from './ledger';
import { marketOrder, marketOrderCall, type MarketOrder } from './market';

/*
 * The database's `market_order` (migration 0010) against the rules it implements: before every order the test reads
 * the book and works out with common/market.ts's `matchOrder` what the order must fill, then places it and compares.
 * The routes' tests (market.test.ts) check what users see; this one checks the match itself over many random books.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const ITEM = 'UNCOMMON_EMOJI_STAR';
const FEE_BPS = 150;
const other = (side: Side): Side => (side === 'BUY' ? 'SELL' : 'BUY');

/** A side of the book as it rests, best price first, then oldest: the order an exchange fills it in. */
async function restingOffers(side: Side): Promise<RestingOffer[]> {
  const found = await sqlRows(
    t.ctx.db,
    sql<
      Columns<typeof marketOffers, 'id' | 'user_id' | 'price' | 'quantity'>
    >`SELECT id, user_id, price, quantity FROM market_offers WHERE item_type = ${ITEM} AND side = ${side}
        ORDER BY CASE WHEN side = 'SELL' THEN price ELSE -price END, created_at, id`,
  );
  return found.map((r) => ({ offerId: r.id, userId: r.user_id, price: r.price, quantity: r.quantity }));
}

/** What the rules say an order must fill, or the refusal it must meet. */
function expected(o: MarketOrder, book: RestingOffer[]): { fills: Fill[]; rest: number } | { refused: string } {
  if (o.kind === 'offer') return matchOrder(o, book, FEE_BPS);
  const offer =
    o.kind === 'market' ? book.find((b) => b.userId !== o.takerId) : book.find((b) => b.userId === o.counterpartyId);
  if (!offer) return { refused: o.kind === 'market' ? 'nobodySells' : 'offerGone' };
  if (o.kind === 'market' && offer.price > o.price) return { refused: 'priceMoved' };
  if (o.kind === 'take' && offer.price !== o.price) return { refused: 'offerMoved' };
  return { ...matchOrder({ ...o, price: offer.price, quantity: 1 }, [offer], FEE_BPS), rest: 0 };
}

describe('market_order', () => {
  it('fills every random order exactly as matchOrder says, and the books balance', async () => {
    const seed = Number(process.env.MARKET_MATCH_SEED ?? Date.now() % 1_000_000);
    console.log(`market match seed ${seed} (rerun with MARKET_MATCH_SEED=${seed})`);
    const random = mulberry32(seed);
    const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
    const users: number[] = [];
    // Some too poor for a bid of 4 at $1.10, so that balances run short too.
    for (const balance of [150, 300, 600, 1_000, 2_000, 3_000, 5_000, 8_000]) {
      const u = await makeUser(t.ctx, { balance });
      await giveItems(t.ctx, u.id, ITEM, 12);
      users.push(u.id);
    }

    const seen = { filled: 0, rested: 0, refused: 0, short: 0, cancelled: 0 };
    for (let n = 0; n < 300; n++) {
      const takerId = users[int(0, users.length - 1)]!;
      const side: Side = random() < 0.5 ? 'BUY' : 'SELL';
      const book = await restingOffers(other(side));
      const roll = random();
      const base = {
        itemType: ITEM,
        side,
        takerId,
        counterpartyId: null,
        feeBps: FEE_BPS,
        at: new Date(),
        pushTtlSeconds: 60,
      };
      let o: MarketOrder;
      if (roll < 0.7) {
        o = { ...base, kind: 'offer', price: int(90, 110), quantity: int(1, 4) };
      } else if (roll < 0.8) {
        o = { ...base, kind: 'offer', price: 0, quantity: 0 };
      } else if (roll < 0.9 && side === 'BUY') {
        o = { ...base, kind: 'market', price: int(95, 110), quantity: 1 };
      } else {
        const target = book.filter((b) => b.userId !== takerId)[int(0, 3)] ?? book[0];
        o = {
          ...base,
          kind: 'take',
          price: (target?.price ?? 100) + (random() < 0.1 ? 1 : 0),
          quantity: 1,
          counterpartyId: target?.userId ?? users[0]!,
        };
        if (o.counterpartyId === takerId) continue;
      }
      const want = expected(o, book);
      const before = await availableBalance(t.ctx.db, takerId);
      try {
        const got = await t.ctx.transact((work) => marketOrder(work, o));
        if ('refused' in got) {
          // Owning too few is the taker's state, not the book's: the rules above do not know it.
          if (got.refused !== 'ownsFewer' && got.refused !== 'allOffered') {
            expect(got.refused, JSON.stringify(o)).toBe('refused' in want ? want.refused : 'no refusal');
          }
          seen.refused++;
          continue;
        }
        expect('refused' in want, `${JSON.stringify(o)} was refused by the rules`).toBe(false);
        const rule = want as { fills: Fill[]; rest: number };
        expect({ fills: got.fills, rest: got.rest }, JSON.stringify(o)).toEqual({
          fills: rule.fills,
          rest: o.kind === 'offer' ? rule.rest : 0,
        });
        expect(got.positions[0]).toMatchObject({ userId: takerId, balance: before });
        // The figures after, worked out from those before and the order, are the book's as it now stands.
        const [now] = await sqlRows<{ f: unknown }>(t.ctx.db, sql`SELECT market_figures(${ITEM}) AS f`);
        expect(got.after, JSON.stringify(o)).toEqual(now!.f);
        if (got.fills.length > 0) seen.filled++;
        if (got.rest > 0) seen.rested++;
        if (o.price === 0) seen.cancelled++;
      } catch (err) {
        if (!(err instanceof InsufficientFunds)) throw err;
        seen.short++;
      }
    }
    console.log(`market match: ${JSON.stringify(seen)}`);
    // Every path was taken, so the comparison above meant something.
    expect(Math.min(seen.filled, seen.rested, seen.refused, seen.short, seen.cancelled)).toBeGreaterThan(0);
    expect(await checkConservation(t.ctx.db)).toMatchObject({ ok: true, crossedBooks: 0 });
  });

  it("words the makers' pushes as common/push-messages.ts does, money as common/money.ts shows it", async () => {
    const random = mulberry32(28);
    const amounts = [0, 1, 5, 99, 100, 101, 150, 1_000, 99_999, 100_000, 123_456_789, 100_000_000_000];
    for (let n = 0; n < 200; n++) amounts.push(Math.floor(random() ** 3 * 10_000_000_000));
    const names = [null, 'ann', "O'Brien", 'a "quoted" \\ back\\slash', 'émile 🦄', 'x'.repeat(290), '🦄'.repeat(300)];
    const cases = amounts.map((amount, i) => ({
      topic: i % 2 === 0 ? ('ITEM_SOLD' as const) : ('ITEM_BOUGHT' as const),
      actorName: names[i % names.length]!,
      amount,
      item: i % 3 === 0 ? 'COMMON_LETTER_J' : ITEM,
    }));
    const rows = cases.map((c, o) => ({ ...c, name: c.actorName, itemName: itemName(c.item), o }));
    const got = await sqlRows<{ money: string; push: string }>(
      t.ctx.db,
      sql`SELECT market_money(c.amount) AS money, market_push(c.topic, c.name, c.amount, c.item, c."itemName") AS push
            FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
              AS c(topic text, name text, amount bigint, item text, "itemName" text, o int)
           ORDER BY c.o`,
    );
    expect(got.map((g) => g.money)).toEqual(cases.map((c) => formatMoney(c.amount)));
    expect(got.map((g) => g.push)).toEqual(cases.map((c) => JSON.stringify(notificationPush(c))));
  });

  it('a refusal found after the function wrote something leaves nothing, in a unit of work and as one call', async () => {
    const item = 'UNCOMMON_EMOJI_FIRE';
    const [seller, buyer] = [await makeUser(t.ctx, { balance: 0 }), await makeUser(t.ctx, { balance: 10_000 })];
    await giveItems(t.ctx, seller.id, item, 2);
    const order = (takerId: number, side: Side, price: number): MarketOrder => ({
      kind: 'offer',
      itemType: item,
      side,
      takerId,
      price,
      quantity: 1,
      counterpartyId: null,
      feeBps: FEE_BPS,
      at: new Date(),
      pushTtlSeconds: 60,
    });
    await t.ctx.transact((work) => marketOrder(work, order(seller.id, 'SELL', 100)));
    // The seller's units are no longer held by their offer (a broken book): the fill's guarded take must fail.
    await t.ctx.db.execute(sql`UPDATE inventories SET held = 0 WHERE user_id = ${seller.id} AND item_type = ${item}`);
    const state = () =>
      sqlRows(
        t.ctx.db,
        sql`SELECT (SELECT count(*) FROM market_offers WHERE item_type = ${item})::int AS offers,
                   (SELECT count(*) FROM trades WHERE item_type = ${item})::int AS trades,
                   (SELECT balance FROM ledger_accounts WHERE code = ${`user:${buyer.id}:available`}) AS balance`,
      );
    const before = await state();
    await expect(t.ctx.transact((work) => marketOrder(work, order(buyer.id, 'BUY', 100)))).rejects.toBeInstanceOf(
      InsufficientItems,
    );
    await expect(marketOrderCall(t.ctx, order(buyer.id, 'BUY', 100), (r) => r)).rejects.toBeInstanceOf(
      InsufficientItems,
    );
    expect(await state()).toEqual(before);
  });

  it("gathers one book's waiting orders into one call, each answered as if alone; a raised refusal runs them again alone", async () => {
    const item = 'UNCOMMON_EMOJI_PIZZA';
    // The books as the tests before left them (the one above leaves its broken book): this one changes nothing there.
    const books = async () => {
      const {
        userMoney: _money,
        itemsMinted: _minted,
        itemsInExistence: _existing,
        ...report
      } = await checkConservation(t.ctx.db);
      return report;
    };
    const booksBefore = await books();
    const sellers = await Promise.all(Array.from({ length: 6 }, () => makeUser(t.ctx, { balance: 0 })));
    const buyers = await Promise.all(Array.from({ length: 6 }, () => makeUser(t.ctx, { balance: 10_000 })));
    for (const s of sellers) await giveItems(t.ctx, s.id, item, 3);
    const calls: string[] = [];
    const counting = {
      db: t.ctx.db,
      transactCall: <R, T>(statement: string, then: (rows: R[], events: Events) => T) => {
        calls.push(statement);
        return t.ctx.transactCall(statement, then);
      },
    };
    const order = (takerId: number, side: Side, price: number, quantity: number): MarketOrder => ({
      kind: 'offer',
      itemType: item,
      side,
      takerId,
      price,
      quantity,
      counterpartyId: null,
      feeBps: FEE_BPS,
      at: new Date(),
      pushTtlSeconds: 60,
    });
    // Six sell offers of 3 at 100, then six bids of 2 at 100 and 3 at 90: all sent at once, they queue on the book.
    const sells = sellers.map((s) => marketOrderCall(counting, order(s.id, 'SELL', 100, 3), (r) => r));
    const bids = buyers.map((b, i) =>
      marketOrderCall(counting, order(b.id, 'BUY', i % 2 ? 90 : 100, i % 2 ? 3 : 2), (r) => r),
    );
    const answers = await Promise.all([...sells, ...bids]);
    expect(calls.length).toBeLessThan(answers.length);
    expect(calls.some((c) => c.includes(' UNION ALL '))).toBe(true);
    // In arrival order: the sells rest (18 units), the bids at 100 take 2 each from the oldest, those at 90 rest.
    const filled = answers.map((a) => ('fills' in a ? a.fills.reduce((n, f) => n + f.quantity, 0) : -1));
    expect(filled).toEqual([0, 0, 0, 0, 0, 0, 2, 0, 2, 0, 2, 0]);
    const takenFrom = answers.slice(6).flatMap((a) => ('fills' in a ? a.fills.map((f) => f.makerId) : []));
    // Each fill one maker: the first bid all of it from the oldest seller, the second one unit of each of the first
    // two, the third from the second.
    expect(takenFrom).toEqual([sellers[0]!.id, sellers[0]!.id, sellers[1]!.id, sellers[1]!.id]);
    expect(await books()).toEqual(booksBefore);

    // A gathered call where one order meets a unit short (a broken book, as above): that one is refused, the other
    // goes on; the first bid (below the broken offer) went alone, the two behind it together, then each alone.
    const [lone] = [await makeUser(t.ctx, { balance: 0 })];
    await giveItems(t.ctx, lone.id, item, 1);
    await marketOrderCall(counting, order(lone.id, 'SELL', 95, 1), (r) => r);
    await t.ctx.db.execute(sql`UPDATE inventories SET held = 0 WHERE user_id = ${lone.id} AND item_type = ${item}`);
    calls.length = 0;
    const next = [
      marketOrderCall(counting, order(buyers[1]!.id, 'BUY', 40, 1), (r) => r),
      marketOrderCall(counting, order(buyers[0]!.id, 'BUY', 96, 1), (r) => r),
      marketOrderCall(counting, order(buyers[2]!.id, 'BUY', 45, 1), (r) => r),
    ];
    const settled = await Promise.allSettled(next);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason).toBeInstanceOf(InsufficientItems);
    expect(calls.length).toBe(4);
    // The unit is put back as its offer holds it; the books balance again.
    await t.ctx.db.execute(sql`UPDATE inventories SET held = 1 WHERE user_id = ${lone.id} AND item_type = ${item}`);
    expect(await books()).toEqual(booksBefore);
  });
});
