import { sql } from 'drizzle-orm';
import { bigint, check, doublePrecision, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { journalEntries, users } from '../../db/core.tables';

const at = <N extends string>(name: N) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A picture on the wall. Its ranking figures are kept on the row so each list is one index scan:
 * `total_amount` (top), `last_author_payment` (profile) and `trending_score`, an upper bound of the trending score
 * (see ranking.ts). Purchases older than the newest RECENT_PURCHASES are folded into `earlier_*` (common/trending.ts).
 */
export const pictures = pgTable(
  'pictures',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    authorId: bigint('author_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    title: text('title').notNull().default(''),
    /** Storage key of the re-encoded file: its content hash and extension. */
    imageKey: text('image_key').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /**
     * The widths its variants are stored at, in every format (`<hash>-<width>.avif|webp|jpg`, storage.ts); null for
     * a picture uploaded before variants existed, which has only its base file (docs/decisions.md "Issue 28, item 4:
     * responsive images").
     */
    variantWidths: integer('variant_widths').array(),
    /** Its ThumbHash, base64, painted until the file arrives; null for pictures uploaded before it existed. */
    placeholder: text('placeholder'),
    totalAmount: bigint('total_amount', { mode: 'number' }).notNull(),
    purchaseCount: integer('purchase_count').notNull().default(0),
    commentCount: integer('comment_count').notNull().default(0),
    createdAt: at('created_at').notNull(),
    lastAuthorPayment: at('last_author_payment').notNull(),
    trendingScore: doublePrecision('trending_score').notNull().default(0),
    trendingAt: at('trending_at').notNull(),
    earlierAmount: bigint('earlier_amount', { mode: 'number' }).notNull().default(0),
    earlierScore: doublePrecision('earlier_score').notNull().default(0),
    earlierAt: at('earlier_at'),
    /** When a moderator removed it (docs/product.md#moderation): off every wall and route; its funds stay booked. */
    removedAt: at('removed_at'),
  },
  (t) => [
    // Ascending on purpose: lists read them backwards for ORDER BY ... DESC (nulls first, PostgreSQL's default),
    // and a DESC NULLS LAST index would not match that order.
    index('pictures_top').on(t.totalAmount, t.createdAt, t.id),
    index('pictures_trending').on(t.trendingScore, t.id),
    index('pictures_profile').on(t.authorId, t.lastAuthorPayment, t.id),
    // The orphan image cleanup asks, for each stored file, whether a picture uses it.
    index('pictures_image_key').on(t.imageKey),
    check('pictures_total_positive', sql`${t.totalAmount} > 0`),
  ],
);

/** Every payment into a picture's fund, the upload price included. */
export const picturePurchases = pgTable(
  'picture_purchases',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    pictureId: bigint('picture_id', { mode: 'number' })
      .notNull()
      .references(() => pictures.id),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    paidAt: at('paid_at').notNull(),
    entryId: bigint('entry_id', { mode: 'number' }).references(() => journalEntries.id),
  },
  (t) => [
    index('picture_purchases_recent').on(t.pictureId, t.id),
    check('picture_purchases_amount_positive', sql`${t.amount} > 0`),
  ],
);
