import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { journalEntries, users } from '../../db/core.tables';

const cents = <N extends string>(name: N) => bigint(name, { mode: 'number' });
const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const payments = pgTable(
  'payments',
  {
    id: text('id').primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    provider: text('provider').notNull(),
    /** The provider's own id (Stripe's Checkout Session id). */
    providerRef: text('provider_ref'),
    amount: cents('amount').notNull(),
    status: text('status').notNull().default('open'),
    returnUrl: text('return_url').notNull(),
    createdAt: createdAt(),
    settledAt: timestamp('settled_at', { withTimezone: true, mode: 'date' }),
    entryId: bigint('entry_id', { mode: 'number' }).references(() => journalEntries.id),
  },
  (t) => [
    uniqueIndex('payments_provider_ref').on(t.provider, t.providerRef),
    index('payments_user').on(t.userId, t.createdAt),
    check('payments_amount_positive', sql`${t.amount} > 0`),
  ],
);

/** Stripe event ids already handled, so a redelivery is answered without work. */
export const webhookEvents = pgTable('webhook_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
