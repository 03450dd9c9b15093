import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../../db/core.tables';

/**
 * Donation links (docs/product.md#charity). A user sends a link quoting their
 * badge; an administrator decides it once: approved with an amount credited from the external-charity account, or
 * rejected with a reason. `badge` is the sender's badge when it was sent, kept as it was quoted.
 */
export const charityLinks = pgTable(
  'charity_links',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    senderId: bigint('sender_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    link: text('link').notNull(),
    badge: text('badge').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    decided: boolean('decided').notNull().default(false),
    approved: boolean('approved').notNull().default(false),
    /** Cents credited on approval; null until approved. */
    amount: bigint('amount', { mode: 'number' }),
    charityName: text('charity_name'),
    adminCategory: text('admin_category'),
    rejectionReason: text('rejection_reason'),
    publiclyVisible: boolean('publicly_visible').notNull().default(false),
    decidedBy: bigint('decided_by', { mode: 'number' }).references(() => users.id),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
    /**
     * SHA-256 (hex) of the link's normal form (common/charity.ts, charityLinkKey): unique among pending and approved
     * links, so one donation is credited once. Null only for a link approved twice before the rule (migration 0011).
     */
    linkKey: text('link_key'),
  },
  (t) => [
    index('charity_links_sender').on(t.senderId, t.createdAt),
    index('charity_links_newest').on(t.createdAt, t.id),
    index('charity_links_public')
      .on(t.createdAt, t.id)
      .where(sql`${t.decided} AND ${t.publiclyVisible}`),
    uniqueIndex('charity_links_link_key')
      .on(t.linkKey)
      .where(sql`${t.approved} OR NOT ${t.decided}`),
    check('charity_links_approved_decided', sql`NOT ${t.approved} OR ${t.decided}`),
    check(
      'charity_links_amount',
      sql`(${t.approved} AND ${t.amount} > 0) OR (NOT ${t.approved} AND ${t.amount} IS NULL)`,
    ),
  ],
);

/**
 * The admin console's dropdown options (docs/product.md#admin): charity categories,
 * charity names and rejection reasons. A fresh database gets defaults from the migration; a value an admin types on a
 * decision is added, so the lists grow by use.
 */
export const charityOptions = pgTable(
  'charity_options',
  {
    kind: text('kind', { enum: ['CATEGORY', 'NAME', 'REJECTION_REASON'] }).notNull(),
    value: text('value').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.value] }),
    check('charity_options_kind', sql`${t.kind} IN ('CATEGORY', 'NAME', 'REJECTION_REASON')`),
  ],
);
