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
  /** Items lootbox openings created. */
  itemsMinted: number;
  /** Items users own (units held by sell offers included): equal to itemsMinted when none was lost or created. */
  itemsInExistence: number;
  /** Entries whose item postings do not sum to zero for some item. */
  unbalancedItemEntries: number;
  /** Inventories whose quantity differs from the sum of their item postings, or that hold more than they own. */
  driftedInventories: number;
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
      (SELECT coalesce(sum(balance), 0) FROM ledger_accounts WHERE guarded)::bigint AS "userMoney",
      (SELECT coalesce(-sum(quantity), 0) FROM item_postings WHERE user_id IS NULL)::bigint AS "itemsMinted",
      (SELECT coalesce(sum(quantity), 0) FROM inventories)::bigint AS "itemsInExistence",
      (SELECT count(*) FROM (SELECT 1 FROM item_postings GROUP BY entry_id, item_type HAVING sum(quantity) <> 0) u)::int
        AS "unbalancedItemEntries",
      (SELECT count(*) FROM (
        SELECT coalesce(i.user_id, p.user_id) FROM inventories i
        FULL JOIN (SELECT user_id, item_type, sum(quantity) AS total FROM item_postings
                   WHERE user_id IS NOT NULL GROUP BY user_id, item_type) p
          ON p.user_id = i.user_id AND p.item_type = i.item_type
        WHERE coalesce(i.quantity, 0) <> coalesce(p.total, 0) OR i.held > i.quantity OR i.quantity < 0) d)::int
        AS "driftedInventories"`,
  );
  const report = r!;
  return {
    ...report,
    ok:
      report.postingsTotal === 0 &&
      report.unbalancedEntries === 0 &&
      report.negativeBalances === 0 &&
      report.driftedAccounts === 0 &&
      report.itemsMinted === report.itemsInExistence &&
      report.unbalancedItemEntries === 0 &&
      report.driftedInventories === 0,
  };
}
