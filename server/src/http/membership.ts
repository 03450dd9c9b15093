import { sql } from 'drizzle-orm';
import { sqlRows } from '../db/connection';
import { int } from '../db/one-call';
import type { Work } from '../db/unit-of-work';
import { suspendedError } from './authorization';

/**
 * A member's call and a suspension never cross (docs/decisions.md, "A suspension waits for the calls in flight"): the
 * edge refuses a suspended user from the session read at the request's start, so a call that started just before a
 * suspension could still commit after it, leaving a new offer the suspension's cancels never saw. A member's call in
 * a unit of work holds this lock shared for its transaction and reads the suspension again once it holds it; a
 * suspension takes it exclusively before it writes, so it waits for the calls in flight (and cancels what they
 * placed) and the calls after it see it. The database's `member_refusal` (migration 0025) takes the same number.
 */
export const SUSPENSION_LOCK = 727279;

/**
 * Takes the user's suspension lock shared, then refuses with 403 if the user is suspended now: one statement, the
 * database's `member_refusal` (migration 0025), which reads the suspension in a statement of its own once it holds
 * the lock, so a suspension that committed meanwhile is seen.
 */
export async function holdMembership(work: Work, userId: number, now: Date): Promise<void> {
  const [row] = await sqlRows(
    work.tx,
    sql<{
      r: SuspendedAnswer | null;
    }>`SELECT member_refusal(${userId}::integer, ${now.toISOString()}::timestamptz) AS r`,
  );
  if (row?.r) throw suspendedRefusal(row.r);
}

/**
 * A member's call sent as a transaction of its own in one round trip (db/one-call.ts), which has no unit of work to
 * run holdMembership in: `call`, an SQL expression, runs only if the database's `member_refusal` (migration 0025),
 * which takes the same lock shared and reads the suspension once it holds it, answers nothing; otherwise the
 * expression's value is `{refused: 'suspended', until}`, which `suspendedRefusal` turns into the 403.
 */
export function asMember(userId: number, at: Date, call: string): string {
  return `coalesce(member_refusal(${int(userId)}, '${at.toISOString()}'::timestamptz), ${call})`;
}

/** What `asMember` answers for a suspended user. */
export interface SuspendedAnswer {
  refused: 'suspended';
  /** The end of the suspension; null: for good. */
  until: string | null;
}

/** The 403 of the suspended user `asMember` answered for. */
export function suspendedRefusal(r: Pick<SuspendedAnswer, 'until'>): Error {
  return suspendedError(r.until === null ? null : new Date(r.until));
}

/** Waits for the user's calls in flight and keeps new ones out until the transaction ends (a suspension's first step). */
export async function holdSuspension(work: Work, userId: number): Promise<void> {
  await work.tx.execute(sql`SELECT pg_advisory_xact_lock(${SUSPENSION_LOCK}, ${userId})`);
}
