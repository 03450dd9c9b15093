import { GOODWILL_FORWARD_LOCK } from '../ledger/goodwill';
import { forwardInJob, startOfMonthUtc } from '../modules/goodwill/goodwill.service';
import type { Job } from './runner';

/**
 * The monthly goodwill forwarding (docs/product.md#goodwill): checked hourly, it forwards every share paid before the first day
 * of the current month (UTC) that no batch covers yet. The first check of a month moves the month before as one batch
 * per cause; later checks find nothing (a missed month is caught up by the next check). It holds the lock the ledger's
 * `forwardGoodwill` takes, so one instance at a time runs it, and the admin command waits for it.
 */
export const goodwillJob: Job = {
  name: 'goodwill-forward',
  lock: GOODWILL_FORWARD_LOCK,
  everyMs: 60 * 60_000,
  atStart: true,
  async run(ctx, work) {
    const batches = await forwardInJob(ctx, work.tx, startOfMonthUtc(ctx.now()));
    if (batches.length > 0) ctx.log.info({ batches }, 'goodwill forwarded');
  },
};
