import { sql } from 'drizzle-orm';
import { sqlRows, type Db, type Executor, type Columns } from '../db/connection';
import type { mailOutbox } from './mail.tables';
import type { Mail, Mailer } from './mailer';

/**
 * The mail outbox (docs/decisions.md, issue 22 item 29). A mail is queued in the transaction of what it tells about,
 * tried once right after the commit, and retried by the mail-outbox job until it is sent (then its row is deleted)
 * or it expires. It lives in the database, beside what it tells about: it survives a restart, every instance
 * shares it, and a full data directory (the file mailer's) or a mail server that is down loses nothing.
 */

/** A queued mail: its row's id and what to send. */
export interface QueuedMail extends Mail {
  id: number;
  attempts: number;
}

/** How long a try holds its mail: one that dies while sending leaves it to another try after this. */
const HOLD_MS = 5 * 60_000;
/** Waits between tries: 30 s, doubling, at most an hour. */
const FIRST_RETRY_MS = 30_000;
const LONGEST_RETRY_MS = 60 * 60_000;
/** Mails one run of the job sends at most. */
const BATCH = 50;

export const retryDelayMs = (attempts: number): number =>
  Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));

export interface OutboxDeps {
  db: Db;
  mailer: Mailer;
  now: () => Date;
  log: { warn(obj: object, msg: string): void };
}

/** Queues a mail in the caller's transaction, held for the try that follows the commit (`deliver`). */
export async function queueMail(tx: Executor, mail: Mail, opts: { now: Date; expiresAt?: Date }): Promise<QueuedMail> {
  const holdUntil = new Date(opts.now.getTime() + HOLD_MS);
  const [row] = await sqlRows(
    tx,
    sql<
      Columns<typeof mailOutbox, 'id'>
    >`INSERT INTO mail_outbox (recipient, sender_name, subject, body, next_attempt_at, expires_at)
        VALUES (${mail.to}, ${mail.senderName}, ${mail.subject}, ${mail.text}, ${holdUntil}, ${opts.expiresAt ?? null})
        RETURNING id`,
  );
  return { ...mail, id: Number(row!.id), attempts: 0 };
}

/**
 * Takes the mails due now for one try (they are held meanwhile, so no other instance tries them too) and drops
 * those that expired unsent.
 */
export async function takeDueMail(tx: Executor, now: Date): Promise<QueuedMail[]> {
  await tx.execute(sql`DELETE FROM mail_outbox WHERE expires_at <= ${now}`);
  const holdUntil = new Date(now.getTime() + HOLD_MS);
  const due = await sqlRows(
    tx,
    sql<
      Columns<typeof mailOutbox, 'id' | 'recipient' | 'sender_name' | 'subject' | 'body' | 'attempts'>
    >`UPDATE mail_outbox SET next_attempt_at = ${holdUntil}
        WHERE id IN (SELECT id FROM mail_outbox WHERE next_attempt_at <= ${now}
                     ORDER BY next_attempt_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
        RETURNING id, recipient, sender_name, subject, body, attempts`,
  );
  return due.map((r) => ({
    id: Number(r.id),
    to: r.recipient,
    senderName: r.sender_name,
    subject: r.subject,
    text: r.body,
    attempts: Number(r.attempts),
  }));
}

/**
 * One try of a queued mail, outside any transaction (a mail server may take its time): sent, its row goes; refused,
 * the try is counted and the next one scheduled. Never throws: the mail stays queued whatever happened.
 */
export async function deliver(deps: OutboxDeps, mail: QueuedMail): Promise<boolean> {
  const { id, attempts, ...content } = mail;
  try {
    await deps.mailer.send(content);
  } catch (err) {
    const tries = attempts + 1;
    const next = new Date(deps.now().getTime() + retryDelayMs(tries));
    deps.log.warn({ mailId: id, attempts: tries, reason: (err as Error).message }, 'mail not sent: queued for a retry');
    await deps.db
      .execute(
        sql`UPDATE mail_outbox SET attempts = ${tries}, next_attempt_at = ${next}, last_error = ${(err as Error).message}
            WHERE id = ${id}`,
      )
      .catch(() => {}); // the database away too: the hold runs out and the job tries again
    return false;
  }
  // Sent. Were this delete lost, the mail would go out once more: twice is better than never.
  await deps.db.execute(sql`DELETE FROM mail_outbox WHERE id = ${id}`).catch(() => {});
  return true;
}
