import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();
const cents = <N extends string>(name: N) => bigint(name, { mode: 'number' });
const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: id(),
    /** Null until an identity-provider user picks a nickname. */
    username: text('username'),
    email: text('email'),
    emailVerified: boolean('email_verified').notNull().default(false),
    emailSecretHash: text('email_secret_hash'),
    /** When the verification link stops working; null once it has been used (a link is single-use). */
    emailSecretExpiresAt: timestamp('email_secret_expires_at', { withTimezone: true, mode: 'date' }),
    passwordHash: text('password_hash'),
    googleSub: text('google_sub'),
    profileImageId: bigint('profile_image_id', { mode: 'number' }),
    badge: text('badge').notNull(),
    firstLogin: boolean('first_login').notNull().default(true),
    isAdmin: boolean('is_admin').notNull().default(false),
    goodWill: text('good_will'),
    keyCount: integer('key_count').notNull().default(0),
    lootBoxCount: integer('loot_box_count').notNull().default(0),
    /**
     * A moderator's suspension (docs/product.md#moderation): paid and writing calls are refused until
     * `suspended_until`, or for good while `suspended_for_good`. Written only by the moderation module.
     */
    suspendedUntil: timestamp('suspended_until', { withTimezone: true, mode: 'date' }),
    suspendedForGood: boolean('suspended_for_good').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_username_lower').on(sql`lower(${t.username})`),
    uniqueIndex('users_google_sub').on(t.googleSub),
    uniqueIndex('users_badge').on(t.badge),
    check('users_key_count_nonneg', sql`${t.keyCount} >= 0`),
    check('users_loot_box_count_nonneg', sql`${t.lootBoxCount} >= 0`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the cookie token: a leaked table does not leak live sessions. */
    tokenHash: text('token_hash').primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('sessions_user').on(t.userId)],
);

/**
 * The tables every domain stands on: users, their sessions, the ledger and idempotency keys. A domain's own tables
 * live in its module as `<domain>.tables.ts`; drizzle.config.ts finds them all for migrations.
 */

/**
 * Ledger accounts. `guarded` accounts (users' available and escrow money) keep a running balance that a spend
 * decrements with a guarded UPDATE; the CHECK makes a negative balance impossible. System accounts (revenue,
 * goodwill, external) are never guarded: their balance is the sum of their postings, so no spend ever waits on a
 * shared hot row.
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    code: text('code').primaryKey(),
    kind: text('kind').notNull(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id),
    cause: text('cause'),
    guarded: boolean('guarded').notNull(),
    balance: cents('balance').notNull().default(0),
  },
  (t) => [
    check('ledger_accounts_balance_nonneg', sql`${t.balance} >= 0`),
    check('ledger_accounts_unguarded_zero', sql`${t.guarded} OR ${t.balance} = 0`),
    index('ledger_accounts_user').on(t.userId),
  ],
);

export const journalEntries = pgTable(
  'journal_entries',
  {
    id: id(),
    kind: text('kind').notNull(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id),
    resourceId: text('resource_id'),
    memo: jsonb('memo'),
    createdAt: createdAt(),
  },
  (t) => [index('journal_entries_user_kind').on(t.userId, t.kind, t.createdAt)],
);

export const postings = pgTable(
  'postings',
  {
    id: id(),
    entryId: bigint('entry_id', { mode: 'number' })
      .notNull()
      .references(() => journalEntries.id),
    accountCode: text('account_code')
      .notNull()
      .references(() => ledgerAccounts.code),
    amount: cents('amount').notNull(),
  },
  (t) => [
    index('postings_entry').on(t.entryId),
    index('postings_account').on(t.accountCode),
    check('postings_amount_nonzero', sql`${t.amount} <> 0`),
  ],
);

/**
 * What each user owns of each item (docs/product.md#items: items are assets too). `quantity` counts every unit the user owns;
 * `held` is the part their sell offer holds, kept apart so it cannot be offered or written away twice. Only the
 * ledger writes these rows, and every change of `quantity` is an item posting.
 */
export const inventories = pgTable(
  'inventories',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    itemType: text('item_type').notNull(),
    quantity: integer('quantity').notNull().default(0),
    held: integer('held').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.itemType] }),
    check('inventories_quantity_nonneg', sql`${t.quantity} >= 0`),
    check('inventories_held_within', sql`${t.held} >= 0 AND ${t.held} <= ${t.quantity}`),
    // What is on sale (units held by sell offers): the lootbox odds read it on every opening, so it stays small.
    index('inventories_on_sale')
      .on(t.itemType)
      .where(sql`${t.held} > 0`),
  ],
);

/**
 * Item movements, double-entry like money: the postings of one entry sum to zero per item. A posting without a user
 * is the mint (lootbox openings, the only place items come from), so the items in existence always equal the items
 * minted.
 */
export const itemPostings = pgTable(
  'item_postings',
  {
    id: id(),
    entryId: bigint('entry_id', { mode: 'number' })
      .notNull()
      .references(() => journalEntries.id),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id),
    itemType: text('item_type').notNull(),
    quantity: integer('quantity').notNull(),
  },
  // No secondary index: nothing reads item postings but the books' whole-table checks, and every opening and trade
  // writes ten or more of them (docs/decisions.md, "Issue 28: a lighter lootbox opening").
  (t) => [check('item_postings_quantity_nonzero', sql`${t.quantity} <> 0`)],
);

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code').notNull(),
    response: jsonb('response'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);
