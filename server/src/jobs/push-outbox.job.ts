import { sendPushes, settlePushes, takeDuePushes } from '../modules/push/push.service';
import type { Job } from './runner';

/**
 * Sends the queued pushes (docs/product.md#push), every second so a push reaches its device within a few seconds of
 * the event's commit: the due ones are taken and held under the lock, and sent after the transaction, which waits
 * on no push service (docs/decisions.md "Issue 27: the push outbox and VAPID keys"). Also at start: pushes queued
 * before a restart go out then.
 */
export const pushOutboxJob: Job = {
  name: 'push-outbox',
  lock: 727280,
  everyMs: 1_000,
  atStart: true,
  async run(ctx, work) {
    const due = await takeDuePushes(ctx, work);
    if (due.length === 0) return;
    return async () => sendPushes(ctx, due);
  },
  stop: (ctx) => settlePushes(ctx),
};
