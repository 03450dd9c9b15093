import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../../db/core.tables';

const at = <N extends string>(name: N) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A moderator's decision on reported content (docs/product.md#moderation): one per content, whatever the number of
 * its reports (a report is decided when a decision names its type and id). `suspend_days` is null for none, 0 for
 * good; `refunded` the cents given back to the author by the REFUND journal entry the decision wrote (0: none).
 */
export const moderationDecisions = pgTable(
  'moderation_decisions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    contentType: text('content_type', { enum: ['COMMENT', 'CHAT', 'PICTURE'] }).notNull(),
    contentId: bigint('content_id', { mode: 'number' }).notNull(),
    authorId: bigint('author_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    action: text('action', { enum: ['dismiss', 'remove'] }).notNull(),
    category: text('category').notNull(),
    reasons: text('reasons').notNull(),
    suspendDays: integer('suspend_days'),
    suspendedUntil: at('suspended_until'),
    refunded: bigint('refunded', { mode: 'number' }).notNull().default(0),
    decidedBy: bigint('decided_by', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    decidedAt: at('decided_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('moderation_decisions_once').on(t.contentType, t.contentId),
    index('moderation_decisions_author').on(t.authorId, t.id),
    check('moderation_decisions_type', sql`${t.contentType} IN ('COMMENT', 'CHAT', 'PICTURE')`),
    check('moderation_decisions_action', sql`${t.action} IN ('dismiss', 'remove')`),
    check('moderation_decisions_suspend', sql`${t.suspendDays} IS NULL OR ${t.suspendDays} IN (0, 1, 7, 30)`),
    check('moderation_decisions_refunded', sql`${t.refunded} >= 0`),
  ],
);

/** The author's one appeal of a decision, and how an admin decided it. */
export const moderationAppeals = pgTable(
  'moderation_appeals',
  {
    decisionId: bigint('decision_id', { mode: 'number' })
      .primaryKey()
      .references(() => moderationDecisions.id),
    text: text('text').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    status: text('status', { enum: ['PENDING', 'UPHELD', 'REVERSED'] })
      .notNull()
      .default('PENDING'),
    reasons: text('reasons'),
    decidedBy: bigint('decided_by', { mode: 'number' }).references(() => users.id),
    decidedAt: at('decided_at'),
  },
  (t) => [
    index('moderation_appeals_pending').on(t.status, t.createdAt),
    check('moderation_appeals_status', sql`${t.status} IN ('PENDING', 'UPHELD', 'REVERSED')`),
  ],
);

/** The admin's list of blocked words: stored lower-case, matched case-insensitively as whole words. */
export const blockedWords = pgTable('blocked_words', {
  word: text('word').primaryKey(),
  createdAt: at('created_at').notNull().defaultNow(),
});
