import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../db/connection';

export interface ConservationReport {
  ok: boolean;
  /** Sum of every posting ever made: always 0 when money was neither lost nor created. */
  postingsTotal: number;
  /** Entries whose postings do not sum to zero. */
  unbalancedEntries: number;
  /** Guarded accounts below zero. */
  negativeBalances: number;
  /** Guarded accounts whose running balance differs from the sum of their postings. */
  driftedAccounts: number;
  /** Money users hold (available plus escrow), in cents. */
  userMoney: number;
}

/** The books, checked at any moment (DESIGN.md §3): tests run it after every money test; admins see it. */
export async function checkConservation(exec: Executor): Promise<ConservationReport> {
  const [r] = await rows<Omit<ConservationReport, 'ok'>>(
    exec,
    sql`SELECT
      (SELECT coalesce(sum(amount), 0) FROM postings)::bigint AS "postingsTotal",
      (SELECT count(*) FROM (SELECT entry_id FROM postings GROUP BY entry_id HAVING sum(amount) <> 0) u)::int
        AS "unbalancedEntries",
      (SELECT count(*) FROM ledger_accounts WHERE balance < 0)::int AS "negativeBalances",
      (SELECT count(*) FROM ledger_accounts a
        LEFT JOIN (SELECT account_code, sum(amount) AS total FROM postings GROUP BY account_code) p
          ON p.account_code = a.code
        WHERE a.guarded AND a.balance <> coalesce(p.total, 0))::int AS "driftedAccounts",
      (SELECT coalesce(sum(balance), 0) FROM ledger_accounts WHERE guarded)::bigint AS "userMoney"`,
  );
  const report = r!;
  return {
    ...report,
    ok:
      report.postingsTotal === 0 &&
      report.unbalancedEntries === 0 &&
      report.negativeBalances === 0 &&
      report.driftedAccounts === 0,
  };
}
