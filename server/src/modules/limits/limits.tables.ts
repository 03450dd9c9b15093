import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Rate-limit counters when there is no Redis (neither REDIS_URL nor REDIS_SENTINELS): one row per key and fixed window, shared by every
 * instance on the database. Expired rows are swept now and then (limits.repository.ts).
 */
export const rateCounters = pgTable(
  'rate_counters',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    /** The end of the window; past it the row counts as empty and the next hit starts a new one. */
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('rate_counters_expires_at').on(t.expiresAt)],
);
