import { sql } from 'drizzle-orm';
import type { ModeratedType, ModerationAction, SuspendDays } from '../../../../common/moderation';
import { sqlRows, type Columns, type Executor, type SqlRow } from '../../db/connection';
import type { users } from '../../db/core.tables';
import type { moderationAppeals, moderationDecisions } from './moderation.tables';

/** All of moderation's SQL (docs/product.md#moderation), taking the db or the transaction of a command. */

/**
 * Records the one decision on a content. A second one (a decision already made, or made at this moment by another
 * admin: the unique index makes it wait for that one's commit) writes nothing and answers undefined.
 */
export async function insertDecision(
  exec: Executor,
  d: {
    contentType: ModeratedType;
    contentId: number;
    authorId: number;
    action: ModerationAction;
    category: string;
    reasons: string;
    suspendDays: SuspendDays | null;
    suspendedUntil: Date | null;
    decidedBy: number;
    at: Date;
  },
): Promise<number | undefined> {
  const [row] = await sqlRows(
    exec,
    sql<Columns<typeof moderationDecisions, 'id'>>`INSERT INTO moderation_decisions
          (content_type, content_id, author_id, action, category, reasons, suspend_days, suspended_until, decided_by,
           decided_at)
        VALUES (${d.contentType}, ${d.contentId}, ${d.authorId}, ${d.action}, ${d.category}, ${d.reasons},
                ${d.suspendDays}, ${d.suspendedUntil}, ${d.decidedBy}, ${d.at})
        ON CONFLICT DO NOTHING RETURNING id`,
  );
  return row && Number(row.id);
}

export async function setRefunded(exec: Executor, decisionId: number, amount: number): Promise<void> {
  await exec.execute(sql`UPDATE moderation_decisions SET refunded = ${amount} WHERE id = ${decisionId}`);
}

/**
 * Sets a user's suspension from the decisions that suspended them and were not reversed on appeal: for good if any
 * was, else until the latest end (the longest suspension wins). The moderation module is the one writer of these
 * two columns (db/core.tables.ts).
 */
export async function applySuspensions(
  exec: Executor,
  userId: number,
): Promise<Columns<typeof users, 'suspended_until' | 'suspended_for_good'>> {
  const standing = sql`FROM moderation_decisions d LEFT JOIN moderation_appeals a ON a.decision_id = d.id
    WHERE d.author_id = ${userId} AND d.suspend_days IS NOT NULL AND a.status IS DISTINCT FROM 'REVERSED'`;
  const [row] = await sqlRows(
    exec,
    sql<Columns<typeof users, 'suspended_until' | 'suspended_for_good'>>`UPDATE users SET
          suspended_for_good = EXISTS (SELECT 1 ${standing} AND d.suspend_days = 0),
          suspended_until = (SELECT max(d.suspended_until) ${standing})
        WHERE id = ${userId} RETURNING suspended_until, suspended_for_good`,
  );
  return row!;
}

/** Who to tell, and how: the author's name and address. */
export async function contactOf(
  exec: Executor,
  userId: number,
): Promise<Columns<typeof users, 'username' | 'email'> | undefined> {
  const [row] = await sqlRows(
    exec,
    sql<Columns<typeof users, 'username' | 'email'>>`SELECT username, email FROM users WHERE id = ${userId}`,
  );
  return row;
}

/** Whether an administrator other than this user exists (appeals go to another admin when there is one). */
export async function anotherAdmin(exec: Executor, userId: number): Promise<boolean> {
  const found = await sqlRows(
    exec,
    sql<Columns<typeof users, 'id'>>`SELECT id FROM users WHERE is_admin AND id <> ${userId} LIMIT 1`,
  );
  return found.length > 0;
}

/** A decision with its appeal, if any: what the user's list, the appeal and the appeal's decision read. */
export type DecisionRow = Columns<
  typeof moderationDecisions,
  | 'id'
  | 'content_type'
  | 'content_id'
  | 'author_id'
  | 'action'
  | 'category'
  | 'reasons'
  | 'suspend_days'
  | 'suspended_until'
  | 'refunded'
  | 'decided_by'
  | 'decided_at'
> & {
  appeal_status: SqlRow<typeof moderationAppeals>['status'] | null;
  appeal_text: SqlRow<typeof moderationAppeals>['text'] | null;
  appeal_created_at: SqlRow<typeof moderationAppeals>['created_at'] | null;
  appeal_decided_at: SqlRow<typeof moderationAppeals>['decided_at'] | null;
};

const DECISION = sql`d.id, d.content_type, d.content_id, d.author_id, d.action, d.category, d.reasons, d.suspend_days,
  d.suspended_until, d.refunded, d.decided_by, d.decided_at, a.status AS appeal_status, a.text AS appeal_text,
  a.created_at AS appeal_created_at, a.decided_at AS appeal_decided_at`;

/** One decision; `lock` takes it for the rest of the transaction (an appeal's decision). */
export async function decisionById(exec: Executor, id: number, lock = false): Promise<DecisionRow | undefined> {
  const [row] = await sqlRows(
    exec,
    sql<DecisionRow>`SELECT ${DECISION} FROM moderation_decisions d
        LEFT JOIN moderation_appeals a ON a.decision_id = d.id WHERE d.id = ${id}
        ${lock ? sql`FOR UPDATE OF d` : sql``}`,
  );
  return row;
}

/** The decisions that acted on a user's content (removals), newest first. */
export function decisionsOf(exec: Executor, authorId: number, limit: number): Promise<DecisionRow[]> {
  return sqlRows(
    exec,
    sql<DecisionRow>`SELECT ${DECISION} FROM moderation_decisions d
        LEFT JOIN moderation_appeals a ON a.decision_id = d.id
        WHERE d.author_id = ${authorId} AND d.action = 'remove'
        ORDER BY d.id DESC LIMIT ${limit}`,
  );
}

/** The author's one appeal; false when there already is one. */
export async function insertAppeal(
  exec: Executor,
  a: { decisionId: number; text: string; at: Date },
): Promise<boolean> {
  const done = await sqlRows(
    exec,
    sql<Columns<typeof moderationAppeals, 'decision_id'>>`INSERT INTO moderation_appeals (decision_id, text, created_at)
        VALUES (${a.decisionId}, ${a.text}, ${a.at}) ON CONFLICT DO NOTHING RETURNING decision_id`,
  );
  return done.length > 0;
}

/** Decides a pending appeal; false when it is not pending (decided meanwhile). */
export async function decideAppeal(
  exec: Executor,
  a: { decisionId: number; status: 'UPHELD' | 'REVERSED'; reasons: string; by: number; at: Date },
): Promise<boolean> {
  const done = await sqlRows(
    exec,
    sql<Columns<typeof moderationAppeals, 'decision_id'>>`UPDATE moderation_appeals
        SET status = ${a.status}, reasons = ${a.reasons}, decided_by = ${a.by}, decided_at = ${a.at}
        WHERE decision_id = ${a.decisionId} AND status = 'PENDING' RETURNING decision_id`,
  );
  return done.length > 0;
}

/** A pending appeal as the console lists it: the decision, who decided, whose content, and the removed text. */
export type PendingAppealRow = DecisionRow & {
  decider_name: SqlRow<typeof users>['username'];
  author_name: SqlRow<typeof users>['username'];
  content_text: string | null;
};

/** Appeals waiting for a decision, oldest first. */
export function pendingAppeals(exec: Executor, limit: number): Promise<PendingAppealRow[]> {
  return sqlRows(
    exec,
    sql<PendingAppealRow>`SELECT ${DECISION}, du.username AS decider_name, au.username AS author_name,
          CASE d.content_type WHEN 'COMMENT' THEN (SELECT body FROM comments WHERE id = d.content_id)
                              WHEN 'PICTURE' THEN (SELECT title FROM pictures WHERE id = d.content_id)
                              ELSE (SELECT body FROM chat_messages WHERE id = d.content_id) END AS content_text
        FROM moderation_appeals a JOIN moderation_decisions d ON d.id = a.decision_id
        JOIN users du ON du.id = d.decided_by JOIN users au ON au.id = d.author_id
        WHERE a.status = 'PENDING'
        ORDER BY a.created_at, a.decision_id LIMIT ${limit}`,
  );
}

/** A line of the public log: nothing of who or what. */
export type LogRow = Columns<
  typeof moderationDecisions,
  'id' | 'decided_at' | 'content_type' | 'category' | 'action' | 'suspend_days'
> & { appeal_status: SqlRow<typeof moderationAppeals>['status'] | null };

/** The public log, newest first, before the decision id `before`. */
export function logPage(exec: Executor, page: { before: number | null; limit: number }): Promise<LogRow[]> {
  return sqlRows(
    exec,
    sql<LogRow>`SELECT d.id, d.decided_at, d.content_type, d.category, d.action, d.suspend_days,
          a.status AS appeal_status
        FROM moderation_decisions d LEFT JOIN moderation_appeals a ON a.decision_id = d.id
        ${page.before === null ? sql`` : sql`WHERE d.id < ${page.before}`}
        ORDER BY d.id DESC LIMIT ${page.limit}`,
  );
}
