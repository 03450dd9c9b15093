import { sql } from 'drizzle-orm';
import { GOODWILL_TYPES, type GoodWillType } from '../../../common/constants';
import { batchReference } from '../../../common/goodwill';
import { sqlRows, type Columns } from '../db/connection';
import type { postings } from '../db/core.tables';
import type { Work } from '../db/unit-of-work';
import { account, post } from './ledger';

/*
 * Forwarding goodwill: the payable shares of each cause move, in batches, to its forwarded account. Money moves, so
 * it stays in the ledger; the goodwill module and the admin command call it.
 */

/** The advisory lock forwarding runs under (the goodwill job's lock too): one forwarding at a time, anywhere. */
export const GOODWILL_FORWARD_LOCK = 727278;

export interface ForwardedBatch {
  id: number;
  cause: GoodWillType;
  amount: number;
  entryId: number;
  reference: string;
}

/**
 * Forwards goodwill (docs/decisions.md, "Forwarding marks shares, not a watermark"): per cause, every share (a spend's posting to the cause's payable account) that no
 * batch covers yet, paid before `before` (all of them by default), becomes one batch and one GOODWILL_FORWARD entry
 * from payable to forwarded. The shares are marked and summed in one statement, so a batch's amount is exactly the
 * sum of the shares it covers, whatever commits meanwhile, and a share is in one batch at most. Runs under an advisory
 * lock held to the end of the caller's transaction: a second forwarding waits, then finds nothing left to forward.
 */
export async function forwardGoodwill(work: Work, opts: { now: Date; before?: Date }): Promise<ForwardedBatch[]> {
  await work.tx.execute(sql`SELECT pg_advisory_xact_lock(${GOODWILL_FORWARD_LOCK})`);
  const batches: ForwardedBatch[] = [];
  const paidBefore = opts.before
    ? sql`AND EXISTS (SELECT 1 FROM journal_entries e WHERE e.id = p.entry_id AND e.created_at < ${opts.before})`
    : sql``;
  for (const cause of GOODWILL_TYPES) {
    const [batch] = await sqlRows(
      work.tx,
      sql<Columns<typeof postings, 'id' | 'amount'>>`WITH u AS MATERIALIZED (
            SELECT p.id, p.amount FROM postings p
            WHERE p.account_code = ${account.goodwillPayable(cause)} AND p.amount > 0 ${paidBefore}
              AND NOT EXISTS (SELECT 1 FROM goodwill_shares s WHERE s.posting_id = p.id)),
          b AS (INSERT INTO goodwill_batches (cause, amount, forwarded_on, reference)
                SELECT ${cause}, sum(u.amount), ${opts.now}, '' FROM u HAVING count(*) > 0
                RETURNING id, amount),
          s AS (INSERT INTO goodwill_shares (posting_id, batch_id) SELECT u.id, b.id FROM u, b RETURNING 1)
        SELECT b.id, b.amount, (SELECT count(*) FROM s) AS shares FROM b`,
    );
    if (!batch) continue;
    const amount = Number(batch.amount);
    const id = Number(batch.id);
    const reference = batchReference(id, opts.now);
    const { entryId } = await post(work, {
      kind: 'GOODWILL_FORWARD',
      userId: null,
      resourceId: String(id),
      memo: { cause, reference },
      postings: [
        { account: account.goodwillPayable(cause), amount: -amount },
        { account: account.goodwillForwarded(cause), amount },
      ],
    });
    await work.tx.execute(
      sql`UPDATE goodwill_batches SET entry_id = ${entryId}, reference = ${reference} WHERE id = ${id}`,
    );
    batches.push({ id, cause, amount, entryId, reference });
  }
  return batches;
}
