import { sql, type SQL } from 'drizzle-orm';
import { RECENT_PURCHASES } from '../../../../common/trending';
import { sqlRows, type Executor, type Columns, type SqlRow } from '../../db/connection';
import type { pictures } from './pictures.tables';

/**
 * The three orders of the wall, each answered from one index so no page costs more on a bigger wall.
 *
 * Trending is the hard one: every score decays every second, so no index can hold it exactly. Each row keeps
 * `trending_score`, an UPPER BOUND of its current score: a purchase adds its full contribution (1000 × amount, its
 * value at the moment it is paid) and otherwise scores only fall. A periodic refresh (refreshTrending) sets the
 * bound of the REFRESH_SIZE highest rows to their exact score at that moment, which keeps the bounds of everything
 * that can reach the first pages tight. A page is then found by a threshold scan: read rows in bound order, compute
 * each one's exact score (bounded work: the newest RECENT_PURCHASES purchases plus the folded rest), and stop once
 * the next bound cannot beat the last score on the page. Up to EXACT_WINDOW positions this is exact; deeper pages
 * are served in bound order, which is the order at the last refresh for those rows.
 */

/** Pages ending within this many positions of the top are ranked exactly. */
export const EXACT_WINDOW = 500;
/** Rows a threshold scan may read before it settles for what it has. */
const MAX_SCAN = 4 * EXACT_WINDOW;
/** Rows of a threshold scan's read are a multiple of this (a few statement texts, each with its plan kept). */
const BATCH_STEP = 20;
/** How many of the highest bounds the periodic refresh makes exact. */
export const REFRESH_SIZE = 1000;

const nowParam = (now: Date) => sql`${now.toISOString()}::timestamptz`;
const minutesSince = (column: SQL, now: Date) =>
  sql`greatest(0, extract(epoch from (${nowParam(now)} - ${column}))::float8 / 60)`;

/**
 * A picture's exact trending score at `now`, as SQL over the row `p`; the same formula as common/trending.ts.
 */
export function exactScoreSql(now: Date): SQL {
  return sql`(CASE WHEN p.earlier_score > 0 AND p.earlier_amount > 0
      THEN 1000.0::float8 * p.earlier_amount / (1000.0::float8 * p.earlier_amount / p.earlier_score
        + ${minutesSince(sql`p.earlier_at`, now)})
      ELSE 0 END
    + coalesce((SELECT sum(1000.0::float8 * r.amount / (${minutesSince(sql`r.paid_at`, now)} + 1))
        FROM (SELECT amount, paid_at FROM picture_purchases
              WHERE picture_id = p.id ORDER BY id DESC LIMIT ${RECENT_PURCHASES}) r), 0))`;
}

export interface Page {
  offset: number;
  limit: number;
}

/** A page of the top list: a backward walk of the top index. */
export const topPage = (page: Page) =>
  sql`SELECT id FROM pictures WHERE removed_at IS NULL ORDER BY total_amount DESC, created_at DESC, id DESC
      OFFSET ${page.offset} LIMIT ${page.limit}`;

/** A page of one author's pictures, latest author payment first. */
export const profilePage = (authorId: number, page: Page) =>
  sql`SELECT id FROM pictures WHERE author_id = ${authorId} AND removed_at IS NULL
      ORDER BY last_author_payment DESC, id DESC OFFSET ${page.offset} LIMIT ${page.limit}`;

/** The ids of a page (`topPage`, `profilePage`), in its order. */
export async function pageIds(exec: Executor, page: SQL): Promise<number[]> {
  const found = await sqlRows(exec, sql<Columns<typeof pictures, 'id'>>`${page}`);
  return found.map((r) => r.id);
}

/** A picture read for the trending order: its stored bound (`trending_score`) and its exact score now (computed). */
type Scored = Columns<typeof pictures, 'id'> & { bound: SqlRow<typeof pictures>['trending_score']; score: number };

const byScore = (a: Scored, b: Scored) => b.score - a.score || b.id - a.id;

export async function trendingIds(exec: Executor, page: Page, now: Date): Promise<number[]> {
  const want = page.offset + page.limit;
  if (want > EXACT_WINDOW) {
    const found = await sqlRows(
      exec,
      sql<
        Columns<typeof pictures, 'id'>
      >`SELECT id FROM pictures WHERE removed_at IS NULL ORDER BY trending_score DESC, id DESC
          OFFSET ${page.offset} LIMIT ${page.limit}`,
    );
    return found.map((r) => r.id);
  }
  // Just past the page: with bounds fresh from the last refresh, one read is usually enough.
  // Rounded up to a multiple of BATCH_STEP and written into the statement: its text is then one of a few, each
  // planned once per connection (db/postgres.ts names statements with parameters) where a LIMIT parameter would
  // have it planned again for every page, which cost more than running it (docs/performance.md "Wall").
  const batch = Math.ceil((want + Math.max(20, Math.ceil(want / 4))) / BATCH_STEP) * BATCH_STEP;
  const seen: Scored[] = [];
  let after: Scored | undefined;
  while (seen.length < MAX_SCAN) {
    const more = await sqlRows(
      exec,
      sql<Scored>`SELECT p.id, p.trending_score AS bound, ${exactScoreSql(now)} AS score
          FROM (SELECT * FROM pictures WHERE removed_at IS NULL
                ${after ? sql`AND (trending_score, id) < (${after.bound}::float8, ${after.id}::bigint)` : sql``}
                ORDER BY trending_score DESC, id DESC LIMIT ${sql.raw(String(batch))}) p
          ORDER BY p.trending_score DESC, p.id DESC`,
    );
    seen.push(...more);
    if (more.length < batch) break;
    after = more[more.length - 1]!;
    seen.sort(byScore);
    // Every row not read yet has a bound, hence a score, no higher than the last bound read.
    const threshold = seen[want - 1]?.score;
    if (threshold !== undefined && after.bound <= threshold) break;
  }
  seen.sort(byScore);
  return seen.slice(page.offset, want).map((r) => r.id);
}

/**
 * Makes the highest bounds exact again (server/src/jobs/trending.job.ts runs it every 15 s on one instance). The
 * rows are locked first, so a purchase committing meanwhile is either waited for and counted, or comes after and
 * adds to the fresh bound: a bound never ends up below the score.
 */
export async function refreshTrending(exec: Executor, now: Date, size = REFRESH_SIZE): Promise<number> {
  return exec.transaction(async (tx) => {
    const ids = await sqlRows(
      tx,
      sql<
        Columns<typeof pictures, 'id'>
      >`SELECT id FROM pictures ORDER BY trending_score DESC, id DESC LIMIT ${size} FOR UPDATE`,
    );
    if (ids.length === 0) return 0;
    const list = sql.join(
      ids.map((r) => sql`${r.id}::bigint`),
      sql`, `,
    );
    await tx.execute(
      sql`UPDATE pictures p SET trending_score = ${exactScoreSql(now)}, trending_at = ${nowParam(now)}
          WHERE p.id IN (${list})`,
    );
    return ids.length;
  });
}
