import { sql } from 'drizzle-orm';
import { DEFAULT_GOODWILL, GOODWILL_TYPES, type GoodWillType } from '../../../../common/constants';
import { sqlRows, type Executor, type Columns, type SqlRow } from '../../db/connection';
import type { journalEntries, postings, users } from '../../db/core.tables';
import type { goodwillBatches } from './goodwill.tables';

/** All of goodwill's SQL. The shares and the forwarded amounts are the ledger's postings; batches say what moved. */

/** The user's chosen cause; the default for a user who never chose (or holds a cause no longer offered). */
export async function causeOf(exec: Executor, userId: number): Promise<GoodWillType> {
  const [row] = await sqlRows(
    exec,
    sql<Columns<typeof users, 'good_will'>>`SELECT good_will FROM users WHERE id = ${userId}`,
  );
  const chosen = row?.good_will;
  return (GOODWILL_TYPES as readonly string[]).includes(chosen ?? '') ? (chosen as GoodWillType) : DEFAULT_GOODWILL;
}

export async function setCause(exec: Executor, userId: number, cause: GoodWillType): Promise<void> {
  await exec.execute(sql`UPDATE users SET good_will = ${cause} WHERE id = ${userId}`);
}

/**
 * A share: its posting, the cause of the payable account it went to (never null on a goodwill account, and one of
 * GOODWILL_TYPES: ledger.ts opens them), its entry's time, and the reference of the batch that forwarded it.
 */
export type ShareRow = Columns<typeof postings, 'id' | 'amount'> & {
  cause: GoodWillType;
  paid_on: SqlRow<typeof journalEntries>['created_at'];
  reference: SqlRow<typeof goodwillBatches>['reference'] | null;
};

/**
 * The user's shares, newest first: each posting of one of their entries to a payable account (a spend's half), with
 * the reference of the batch that forwarded it, if one has.
 */
export function sharesOf(
  exec: Executor,
  userId: number,
  page: { limit: number; beforeId?: number },
): Promise<ShareRow[]> {
  const before = page.beforeId === undefined ? sql`` : sql`AND p.id < ${page.beforeId}`;
  return sqlRows(
    exec,
    sql<ShareRow>`SELECT p.id, p.amount, a.cause, e.created_at AS paid_on, b.reference
        FROM journal_entries e
        JOIN postings p ON p.entry_id = e.id
        JOIN ledger_accounts a ON a.code = p.account_code AND a.kind = 'goodwill_payable'
        LEFT JOIN goodwill_shares s ON s.posting_id = p.id
        LEFT JOIN goodwill_batches b ON b.id = s.batch_id
        WHERE e.user_id = ${userId} AND p.amount > 0 ${before}
        ORDER BY p.id DESC LIMIT ${page.limit}`,
  );
}

/** The users whose shares these batches forwarded, each once: the payer of each share's journal entry. */
export async function payersOf(exec: Executor, batchIds: readonly number[]): Promise<number[]> {
  const rows = await sqlRows(
    exec,
    sql<Columns<typeof journalEntries, 'user_id'>>`SELECT DISTINCT e.user_id
        FROM goodwill_shares s
        JOIN postings p ON p.id = s.posting_id
        JOIN journal_entries e ON e.id = p.entry_id
       WHERE s.batch_id = ANY(${`{${batchIds.join(',')}}`}::bigint[]) AND e.user_id IS NOT NULL`,
  );
  return rows.map((r) => Number(r.user_id));
}

export type BatchRow = Columns<typeof goodwillBatches, 'id' | 'cause' | 'amount' | 'forwarded_on' | 'reference'>;

/** Every forwarded batch, oldest first (the public CSV). */
export function allBatches(exec: Executor): Promise<BatchRow[]> {
  return sqlRows(
    exec,
    sql<BatchRow>`SELECT id, cause, amount, forwarded_on, reference FROM goodwill_batches ORDER BY id`,
  );
}

/**
 * A cause's sums (computed): cents paid in (every share), still payable, and forwarded. A goodwill account's cause
 * is one of GOODWILL_TYPES (ledger.ts opens them), narrower than the column's text.
 */
export interface TotalsRow {
  cause: GoodWillType;
  paid_in: number;
  pending: number;
  forwarded: number;
}

/** Per cause: cents paid in (every share), still payable, and forwarded, from the ledger's postings. */
export function totals(exec: Executor): Promise<TotalsRow[]> {
  return sqlRows(
    exec,
    sql<TotalsRow>`SELECT a.cause,
          coalesce(sum(p.amount) FILTER (WHERE a.kind = 'goodwill_payable' AND p.amount > 0), 0)::bigint AS paid_in,
          coalesce(sum(p.amount) FILTER (WHERE a.kind = 'goodwill_payable'), 0)::bigint AS pending,
          coalesce(sum(p.amount) FILTER (WHERE a.kind = 'goodwill_forwarded'), 0)::bigint AS forwarded
        FROM ledger_accounts a LEFT JOIN postings p ON p.account_code = a.code
        WHERE a.kind IN ('goodwill_payable', 'goodwill_forwarded')
        GROUP BY a.cause`,
  );
}
