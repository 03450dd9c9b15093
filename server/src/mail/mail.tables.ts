import { bigint, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Mails waiting to go out (docs/decisions.md, issue 22 item 29): written in the transaction of what they tell about,
 * so none is lost to a mail server that is down or a disk that is full; sent at once, retried by the mail-outbox job
 * until sent (then deleted) or expired.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    recipient: text('recipient').notNull(),
    senderName: text('sender_name').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** When it may be tried (again); a try in progress holds it for a while by moving this ahead. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** Past this it is worth nothing (a verification link that expired) and is dropped unsent. */
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('mail_outbox_next_attempt_at').on(t.nextAttemptAt)],
);
