import { sql } from 'drizzle-orm';
import { sqlRows, type Columns, type Executor } from '../../db/connection';
import type { rateCounters } from './limits.tables';

/** A counter's count and the end of its window, under the TypeScript names. */
export type CounterRow = Pick<typeof rateCounters.$inferSelect, 'count' | 'expiresAt'>;

/** A counter as raw SQL reads it. */
type Raw = Columns<typeof rateCounters, 'count' | 'expires_at'>;
const counterOf = (row: Raw | undefined): CounterRow | undefined =>
  row && { count: Number(row.count), expiresAt: new Date(row.expires_at) };

/**
 * Adds `by` to the key's count in one statement, so concurrent hits on any instance never lose one. A window that
 * ended starts over from `now`, lasting `windowMs`; the count never goes below zero.
 */
export async function addToCounter(
  exec: Executor,
  key: string,
  by: number,
  now: Date,
  windowMs: number,
): Promise<CounterRow> {
  const expires = new Date(now.getTime() + windowMs);
  const [row] = await sqlRows(
    exec,
    sql<Raw>`INSERT INTO rate_counters AS r (key, count, expires_at) VALUES (${key}, ${Math.max(by, 0)}, ${expires})
        ON CONFLICT (key) DO UPDATE SET
          count = GREATEST(CASE WHEN r.expires_at <= ${now} THEN 0 ELSE r.count END + ${by}, 0),
          expires_at = CASE WHEN r.expires_at <= ${now} THEN EXCLUDED.expires_at ELSE r.expires_at END
        RETURNING count, expires_at`,
  );
  return counterOf(row)!;
}

/** The key's count and window end, or undefined when it has none that is still running. */
export async function readCounter(exec: Executor, key: string, now: Date): Promise<CounterRow | undefined> {
  const [row] = await sqlRows(
    exec,
    sql<Raw>`SELECT count, expires_at FROM rate_counters WHERE key = ${key} AND expires_at > ${now}`,
  );
  return counterOf(row);
}

/** Sets the key to `count` in a window of `windowMs` from `now`, whatever it held. */
export async function setCounter(
  exec: Executor,
  key: string,
  count: number,
  now: Date,
  windowMs: number,
): Promise<void> {
  const expires = new Date(now.getTime() + windowMs);
  await exec.execute(
    sql`INSERT INTO rate_counters (key, count, expires_at) VALUES (${key}, ${count}, ${expires})
        ON CONFLICT (key) DO UPDATE SET count = EXCLUDED.count, expires_at = EXCLUDED.expires_at`,
  );
}

export async function deleteCounter(exec: Executor, key: string): Promise<void> {
  await exec.execute(sql`DELETE FROM rate_counters WHERE key = ${key}`);
}

export async function deleteExpiredCounters(exec: Executor, now: Date): Promise<void> {
  await exec.execute(sql`DELETE FROM rate_counters WHERE expires_at <= ${now}`);
}

/**
 * Takes every counter out of the table, answering those whose window still runs: what the database counted while
 * Redis was away, for Redis to carry on from. Rows are deleted as they are read, so two instances coming back at
 * once never hand Redis one count twice.
 */
export async function takeCounters(
  exec: Executor,
  now: Date,
): Promise<(CounterRow & Pick<typeof rateCounters.$inferSelect, 'key'>)[]> {
  const taken = await sqlRows(
    exec,
    sql<
      Columns<typeof rateCounters, 'key' | 'count' | 'expires_at'>
    >`DELETE FROM rate_counters RETURNING key, count, expires_at`,
  );
  return taken
    .map((row) => ({ key: row.key, ...counterOf(row)! }))
    .filter((row) => row.expiresAt.getTime() > now.getTime());
}
