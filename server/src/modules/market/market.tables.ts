import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { journalEntries, users } from '../../db/core.tables';

const at = <N extends string>(name: N) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * The order book: every standing offer, at most one per user, item and side (docs/product.md#market). A sell offer's
 * `quantity` is exactly what the seller's inventory holds for it (`inventories.held`); a buy offer's price ×
 * quantity is exactly its part of the buyer's escrow account. The conservation check proves both.
 */
export const marketOffers = pgTable(
  'market_offers',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    itemType: text('item_type').notNull(),
    side: text('side', { enum: ['BUY', 'SELL'] }).notNull(),
    /** Cents a unit. */
    price: bigint('price', { mode: 'number' }).notNull(),
    /** Units still offered; a filled offer is deleted. */
    quantity: integer('quantity').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('market_offers_one_per_side').on(t.userId, t.itemType, t.side),
    // The two sides of a book in matching order: best price, then oldest.
    index('market_offers_asks')
      .on(t.itemType, t.price, t.createdAt, t.id)
      .where(sql`${t.side} = 'SELL'`),
    index('market_offers_bids')
      .on(t.itemType, t.price.desc(), t.createdAt, t.id)
      .where(sql`${t.side} = 'BUY'`),
    check('market_offers_side', sql`${t.side} IN ('BUY', 'SELL')`),
    check('market_offers_price_positive', sql`${t.price} > 0`),
    check('market_offers_quantity_positive', sql`${t.quantity} > 0`),
  ],
);

/** Every fill: the graphs and the ITEM_BUY / ITEM_SELL rows of the statements read these. */
export const trades = pgTable(
  'trades',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    itemType: text('item_type').notNull(),
    price: bigint('price', { mode: 'number' }).notNull(),
    quantity: integer('quantity').notNull(),
    buyerId: bigint('buyer_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    sellerId: bigint('seller_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    /** The market's cut of the seller's proceeds, cents. */
    fee: bigint('fee', { mode: 'number' }).notNull(),
    /** Which side's order took the resting offer. */
    takerSide: text('taker_side', { enum: ['BUY', 'SELL'] }).notNull(),
    /** The journal entry that moved its money and units (one per order, shared by its fills). */
    entryId: bigint('entry_id', { mode: 'number' })
      .notNull()
      .references(() => journalEntries.id),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    // The graphs read trades by item; statements read the ledger, not this table. Every index costs each trade a
    // write, so there is none by buyer or seller until something reads them that way.
    index('trades_item').on(t.itemType, t.createdAt),
    check('trades_price_positive', sql`${t.price} > 0`),
    check('trades_quantity_positive', sql`${t.quantity} > 0`),
    check('trades_not_self', sql`${t.buyerId} <> ${t.sellerId}`),
  ],
);

/** Users who paid to see every item's graphs (docs/product.md#graphs): once, for good. */
export const graphUnlocks = pgTable('graph_unlocks', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id),
  entryId: bigint('entry_id', { mode: 'number' })
    .notNull()
    .references(() => journalEntries.id),
  createdAt: at('created_at').notNull().defaultNow(),
});
