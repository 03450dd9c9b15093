import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { users } from '../../db/core.tables';
import { pictures } from '../pictures/pictures.tables';

const at = <N extends string>(name: N) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Comments and replies on pictures (docs/product.md#comments). A reply answers a top-level comment of the same picture
 * (`response_to`), never a reply: the depth is at most two (docs/product.md#comments). The 15¢ it cost is the journal entry of kind
 * COMMENT whose resource is the comment's id.
 */
export const comments = pgTable(
  'comments',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    pictureId: bigint('picture_id', { mode: 'number' })
      .notNull()
      .references(() => pictures.id),
    authorId: bigint('author_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    responseTo: bigint('response_to', { mode: 'number' }).references((): AnyPgColumn => comments.id),
    body: text('body').notNull(),
    createdAt: at('created_at').notNull(),
    /** When the picture's author pinned it; null when not pinned. A reply is never pinned. */
    pinnedAt: at('pinned_at'),
    /** When a moderator removed it (docs/product.md#moderation); a removed comment is in no list or route. */
    removedAt: at('removed_at'),
  },
  (t) => [
    index('comments_picture').on(t.pictureId, t.id),
    index('comments_replies').on(t.responseTo, t.id),
    check('comments_reply_not_pinned', sql`${t.responseTo} IS NULL OR ${t.pinnedAt} IS NULL`),
  ],
);

/** Paid emoji reactions on comments and replies (docs/product.md#comments); price and time feed the comment trending sum. */
export const commentReactions = pgTable(
  'comment_reactions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    commentId: bigint('comment_id', { mode: 'number' })
      .notNull()
      .references(() => comments.id),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    reactionType: text('reaction_type').notNull(),
    price: bigint('price', { mode: 'number' }).notNull(),
    reactedAt: at('reacted_at').notNull(),
  },
  (t) => [
    index('comment_reactions_comment').on(t.commentId, t.id),
    check('comment_reactions_price_positive', sql`${t.price} > 0`),
  ],
);
