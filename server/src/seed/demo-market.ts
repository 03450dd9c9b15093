import { MONTHS } from '../../../common/market';
import type { AppContext } from '../context';
import { HttpError } from '../http/errors';
import { InsufficientFunds } from '../ledger/ledger';
import { itemDetails } from '../modules/items/items.service';
import { buyKeys, getLootbox, openLootbox } from '../modules/lootboxes/lootboxes.commands';
import { placeBuyOffer, placeSellOffer } from '../modules/market/market.commands';

const BOXES_EACH = 6;
const DAY = 86_400_000;

/**
 * The demo's market (docs/product.md#operations): each demo user buys keys and opens real lootboxes, then trades what
 * they found over the last twelve months, so the graphs have a history, and leaves offers on the book. Everything
 * goes through the same commands as the API: the items are minted by openings, the money moves through the ledger.
 */
export async function seedDemoMarket(ctx: AppContext, userIds: number[], random: () => number): Promise<void> {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const price = (mid: number) => Math.max(1, Math.round(mid * (0.7 + 0.6 * random())));
  for (const userId of userIds) {
    await ctx.transact((work) => buyKeys(work, userId, BOXES_EACH));
    for (let i = 0; i < BOXES_EACH; i++) {
      await ctx.transact((work) => getLootbox(work, userId));
      await ctx.transact((work) => openLootbox(work, userId, ctx.now()));
    }
  }
  const owned = new Map<number, string[]>();
  for (const userId of userIds) {
    const items = await itemDetails(ctx, userId);
    owned.set(
      userId,
      items.filter((i) => i.user.quantity > 0).map((i) => i.item.itemType),
    );
  }
  const order = async (run: () => Promise<unknown>) => {
    try {
      await run();
    } catch (err) {
      // A demo order the market refuses (nothing left to sell, say) is skipped, as a user would move on.
      if (!(err instanceof HttpError || err instanceof InsufficientFunds)) throw err;
    }
  };
  const now = ctx.now().getTime();
  // A year of trades: each month a few sellers offer and buyers take at prices that drift upward.
  for (let back = MONTHS - 1; back >= 0; back--) {
    for (let n = 0; n < 4; n++) {
      const at = new Date(now - back * 30 * DAY - Math.floor(random() * 20 * DAY));
      const c = { now: at, feeBps: ctx.config.marketFeeBps };
      const seller = pick(userIds);
      const itemType = pick(owned.get(seller)!);
      const buyer = pick(userIds.filter((id) => id !== seller));
      const p = price(60 + (MONTHS - back) * 5);
      await order(() =>
        ctx.transact((work) => placeSellOffer(work, c, { userId: seller, itemType, price: p, quantity: 1 })),
      );
      await order(() =>
        ctx.transact((work) => placeBuyOffer(work, c, { userId: buyer, itemType, price: p, quantity: 1 })),
      );
    }
  }
  // Offers left on the book: asks a little above the going price, bids a little below.
  const c = { now: ctx.now(), feeBps: ctx.config.marketFeeBps };
  for (const userId of userIds) {
    for (const itemType of owned.get(userId)!.slice(0, 3)) {
      await order(() =>
        ctx.transact((work) => placeSellOffer(work, c, { userId, itemType, price: price(150), quantity: 1 })),
      );
    }
    const wanted = pick([...owned.values()].flat());
    await order(() =>
      ctx.transact((work) => placeBuyOffer(work, c, { userId, itemType: wanted, price: price(40), quantity: 2 })),
    );
  }
}
