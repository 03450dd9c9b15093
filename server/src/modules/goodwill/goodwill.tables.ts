import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { journalEntries, postings } from '../../db/core.tables';

/**
 * Forwarded goodwill (docs/product.md#goodwill): one batch per cause per forwarding run, with the GOODWILL_FORWARD entry that
 * moved its amount from the cause's payable to its forwarded account. Only the ledger's `forwardGoodwill` writes it.
 */
export const goodwillBatches = pgTable(
  'goodwill_batches',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    cause: text('cause').notNull(),
    /** Cents: exactly the sum of the shares the batch covers. */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    forwardedOn: timestamp('forwarded_on', { withTimezone: true, mode: 'date' }).notNull(),
    reference: text('reference').notNull(),
    /** Set in the same transaction as the batch, right after its entry is posted. */
    entryId: bigint('entry_id', { mode: 'number' }).references(() => journalEntries.id),
  },
  (t) => [check('goodwill_batches_amount_positive', sql`${t.amount} > 0`), index('goodwill_batches_cause').on(t.cause)],
);

/**
 * Which batch forwarded each share (a spend's posting to a payable account). A share is in one batch at most (the
 * primary key), so it can never be forwarded twice, and a user's payment reads FORWARDED once it is here.
 */
export const goodwillShares = pgTable(
  'goodwill_shares',
  {
    postingId: bigint('posting_id', { mode: 'number' })
      .primaryKey()
      .references(() => postings.id),
    batchId: bigint('batch_id', { mode: 'number' })
      .notNull()
      .references(() => goodwillBatches.id),
  },
  (t) => [index('goodwill_shares_batch').on(t.batchId)],
);
