import { sql } from 'drizzle-orm';
import { sqlRows, type Executor } from '../db/connection';

/**
 * The check's figures. Every one is computed (a count or a sum over the books), none repeats a table's column, so
 * this type is written out rather than derived from the tables.
 */
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
  /** Users whose escrow differs from what their buy offers promise (price × quantity). */
  escrowMismatches: number;
  /** Inventories whose held units differ from their owner's sell offer. */
  heldMismatches: number;
  /** Items whose book crosses between different users: a buy offer at or above another user's sell offer. */
  crossedBooks: number;
  /**
   * Goodwill batches that do not prove out: a batch whose amount differs from the shares it covers or from what its
   * entry moved to the cause's forwarded account, a share that is not a payment to its batch's cause, or a cause whose
   * forwarded account differs from the sum of its batches.
   */
  goodwillMismatches: number;
}

/** The books, checked at any moment (docs/product.md#money): tests run it after every money test; admins see it. */
export async function checkConservation(exec: Executor): Promise<ConservationReport> {
  const [r] = await sqlRows(
    exec,
    sql<Omit<ConservationReport, 'ok'>>`SELECT
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
        AS "driftedInventories",
      (SELECT count(*) FROM ledger_accounts a
        LEFT JOIN (SELECT user_id, sum(price * quantity) AS total FROM market_offers WHERE side = 'BUY'
                   GROUP BY user_id) b ON b.user_id = a.user_id
        WHERE a.kind = 'escrow' AND a.balance <> coalesce(b.total, 0))::int AS "escrowMismatches",
      (SELECT count(*) FROM inventories i
        FULL JOIN (SELECT user_id, item_type, quantity FROM market_offers WHERE side = 'SELL') s
          ON s.user_id = i.user_id AND s.item_type = i.item_type
        WHERE coalesce(i.held, 0) <> coalesce(s.quantity, 0))::int AS "heldMismatches",
      (SELECT count(DISTINCT a.item_type) FROM market_offers a JOIN market_offers b
        ON b.item_type = a.item_type AND b.side = 'BUY' AND a.side = 'SELL'
       AND b.price >= a.price AND b.user_id <> a.user_id)::int AS "crossedBooks",
      ((SELECT count(*) FROM goodwill_batches b
        WHERE b.entry_id IS NULL
           OR b.amount <> (SELECT coalesce(sum(p.amount), 0) FROM goodwill_shares s JOIN postings p ON p.id = s.posting_id
                           WHERE s.batch_id = b.id)
           OR b.amount <> (SELECT coalesce(sum(p.amount), 0) FROM postings p
                           WHERE p.entry_id = b.entry_id AND p.account_code = 'goodwill:' || b.cause || ':forwarded'))
       + (SELECT count(*) FROM goodwill_shares s JOIN postings p ON p.id = s.posting_id
           JOIN goodwill_batches b ON b.id = s.batch_id
          WHERE p.account_code <> 'goodwill:' || b.cause || ':payable' OR p.amount <= 0)
       + (SELECT count(*) FROM ledger_accounts a
           LEFT JOIN (SELECT account_code, sum(amount) AS total FROM postings
                      WHERE account_code LIKE 'goodwill:%:forwarded' GROUP BY account_code) p ON p.account_code = a.code
           LEFT JOIN (SELECT cause, sum(amount) AS total FROM goodwill_batches GROUP BY cause) g
             ON a.code = 'goodwill:' || g.cause || ':forwarded'
          WHERE a.kind = 'goodwill_forwarded' AND coalesce(p.total, 0) <> coalesce(g.total, 0)))::int
        AS "goodwillMismatches"`,
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
      report.driftedInventories === 0 &&
      report.escrowMismatches === 0 &&
      report.heldMismatches === 0 &&
      report.crossedBooks === 0 &&
      report.goodwillMismatches === 0,
  };
}
