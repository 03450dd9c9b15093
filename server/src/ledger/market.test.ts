import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchOrder, type Fill, type RestingOffer, type Side } from '../../../common/market';
import { sqlRows, type Columns } from '../db/connection';
import type { marketOffers } from '../modules/market/market.tables';
import { giveItems, makeUser } from '../test/factories';
import { startTestApp, type TestApp } from '../test/harness';
import { mulberry32 } from '../test/random';
import { checkConservation } from './conservation';
import { InsufficientFunds, availableBalance } from './ledger';
import { marketOrder, type MarketOrder } from './market';

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
      const base = { itemType: ITEM, side, takerId, counterpartyId: null, feeBps: FEE_BPS, at: new Date() };
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
  }, 120_000);
});
