import { deliver, takeDueMail } from '../mail/outbox';
import type { Job } from './runner';

/**
 * Sends the mails whose first try failed (a mail server down, a full disk under the file mailer), one instance at a
 * time: they are taken under the lock, and sent after the transaction, which waits on no mail server
 * (docs/decisions.md, issue 22 items 27 and 29). Also at start: mails queued before a restart go out then.
 */
export const mailOutboxJob: Job = {
  name: 'mail-outbox',
  lock: 727279,
  everyMs: 30_000,
  atStart: true,
  async run(ctx, work) {
    const due = await takeDueMail(work.tx, ctx.now());
    if (due.length === 0) return;
    return async () => {
      for (const mail of due) await deliver(ctx, mail);
    };
  },
};
