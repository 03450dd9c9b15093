import type { GoodWillPaymentsQuery } from '../../../../common/api/goodwill';
import type { GoodWillType } from '../../../../common/constants';
import { GOODWILL_PAGE_DEFAULT, GOODWILL_PAGE_MAX } from '../../../../common/goodwill';
import { goodwillPush } from '../../../../common/push-messages';
import type { AppContext } from '../../context';
import { fieldError } from '../../http/errors';
import type { Executor, Tx } from '../../db/connection';
import type { Work } from '../../db/unit-of-work';
import { forwardGoodwill, type ForwardedBatch } from '../../ledger/goodwill';
import { queuePush } from '../push/push.service';
import * as goodwill from './goodwill.repository';

/*
 * Goodwill (docs/product.md#goodwill): the cause a user's spends send half to, their shares, and the forwarding of
 * every cause's payable in monthly batches, with the public proof (the CSV of batches and the totals per cause).
 */

export const TEXT = { updated: 'Goodwill updated.' } as const;

export const causeOf = (exec: Executor, userId: number) => goodwill.causeOf(exec, userId);

export async function chooseCause(
  ctx: AppContext,
  userId: number,
  cause: GoodWillType,
): Promise<{ value: GoodWillType }> {
  await goodwill.setCause(ctx.db, userId, cause);
  return { value: cause };
}

export async function paymentsOf(
  exec: Executor,
  userId: number,
  query: GoodWillPaymentsQuery,
): Promise<goodwill.ShareRow[]> {
  const limit = query.limit === undefined ? GOODWILL_PAGE_DEFAULT : Number(query.limit);
  if (limit < 1 || limit > GOODWILL_PAGE_MAX) throw fieldError('limit', `1 to ${GOODWILL_PAGE_MAX}`);
  const beforeId = query.beforeId === undefined ? undefined : Number(query.beforeId);
  return goodwill.sharesOf(exec, userId, { limit, beforeId });
}

/** Every forwarded batch, oldest first (the public CSV). */
export function forwardedBatches(exec: Executor): Promise<goodwill.BatchRow[]> {
  return goodwill.allBatches(exec);
}

export function goodwillTotals(exec: Executor): Promise<goodwill.TotalsRow[]> {
  return goodwill.totals(exec);
}

/** The first moment (UTC) of the month `now` is in: the monthly run forwards what was paid before it. */
export function startOfMonthUtc(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/**
 * The job's forwarding, inside the job's transaction (which holds the same lock). Moving goodwill touches no user's
 * balance, so it raises no live event: the unit of work has none to publish.
 */
export function forwardInJob(ctx: AppContext, tx: Tx, before: Date): Promise<ForwardedBatch[]> {
  const work: Work = {
    tx,
    emit: () => {
      throw new Error('forwarding goodwill raises no live event');
    },
  };
  return forwardShares(work, { now: ctx.now(), before });
}

/**
 * Forwards goodwill (the ledger's `forwardGoodwill`: the job's monthly run and the admin command) and, in the same
 * transaction, queues one GOODWILL push to each user whose shares it forwarded, whatever the number of shares or
 * causes (docs/product.md#push).
 */
export async function forwardShares(work: Work, opts: { now: Date; before?: Date }): Promise<ForwardedBatch[]> {
  const batches = await forwardGoodwill(work, opts);
  if (batches.length > 0) {
    const payers = await goodwill.payersOf(
      work.tx,
      batches.map((b) => b.id),
    );
    await queuePush(work, payers, goodwillPush(), opts.now);
  }
  return batches;
}
