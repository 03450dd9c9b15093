import { sql } from 'drizzle-orm';
import type { ReportReason, ReportType } from '../../../../common/reports';
import { sqlRows, type Executor, type Columns, type SqlRow } from '../../db/connection';
import type { users } from '../../db/core.tables';
import type { reports } from './reports.tables';
import type { chatMessages } from '../chat/chat.tables';
import type { comments } from '../comments/comments.tables';
import type { moderationDecisions } from '../moderation/moderation.tables';
import type { pictures } from '../pictures/pictures.tables';

/** All of the reports' SQL. */

/** Whether a chat message exists (the chat owns `chat_messages`; reports only look). */
export async function chatMessageExists(exec: Executor, id: number): Promise<boolean> {
  const found = await sqlRows(
    exec,
    sql<Columns<typeof chatMessages, 'id'>>`SELECT id FROM chat_messages WHERE id = ${id} AND removed_at IS NULL`,
  );
  return found.length > 0;
}

/** Stores a report unless this user already reported this message; answers its id, or undefined on a repeat. */
export async function insertReport(
  exec: Executor,
  r: { reporterId: number; type: ReportType; messageId: number; reason: ReportReason; description: string },
): Promise<number | undefined> {
  const [row] = await sqlRows(
    exec,
    sql<Columns<typeof reports, 'id'>>`INSERT INTO reports (reporter_id, type, message_id, reason, description)
        VALUES (${r.reporterId}, ${r.type}, ${r.messageId}, ${r.reason}, ${r.description})
        ON CONFLICT (reporter_id, type, message_id) DO NOTHING RETURNING id`,
  );
  return row?.id;
}

export type ReportRow = Columns<
  typeof reports,
  'id' | 'type' | 'message_id' | 'reason' | 'description' | 'reporter_id' | 'created_at'
> & {
  reporter_name: SqlRow<typeof users>['username'];
  /** The reported comment's or chat message's body, or the picture's title; null when it is gone. */
  message_text:
    SqlRow<typeof comments>['body'] | SqlRow<typeof chatMessages>['body'] | SqlRow<typeof pictures>['title'] | null;
  /** The decision on the reported content (docs/product.md#moderation), null while it is open. */
  decision_id: SqlRow<typeof moderationDecisions>['id'] | null;
  decision_action: SqlRow<typeof moderationDecisions>['action'] | null;
  decided_at: SqlRow<typeof moderationDecisions>['decided_at'] | null;
};

/** Reports, newest first, with the reporter and the reported text, for the admin console's Reports tab. */
export function reportsPage(exec: Executor, page: { limit: number; beforeId?: number }): Promise<ReportRow[]> {
  const before = page.beforeId === undefined ? sql`` : sql`WHERE r.id < ${page.beforeId}`;
  return sqlRows(
    exec,
    sql<ReportRow>`SELECT r.id, r.type, r.message_id, r.reason, r.description, r.reporter_id, u.username AS reporter_name,
          CASE r.type WHEN 'COMMENT' THEN (SELECT body FROM comments WHERE id = r.message_id)
                      WHEN 'PICTURE' THEN (SELECT title FROM pictures WHERE id = r.message_id)
                      ELSE (SELECT body FROM chat_messages WHERE id = r.message_id) END AS message_text,
          r.created_at, d.id AS decision_id, d.action AS decision_action, d.decided_at
        FROM reports r JOIN users u ON u.id = r.reporter_id
        LEFT JOIN moderation_decisions d ON d.content_type = r.type AND d.content_id = r.message_id
        ${before}
        ORDER BY r.id DESC LIMIT ${page.limit}`,
  );
}

/** A report's content: its type and id. */
export async function reportedContent(
  exec: Executor,
  id: number,
): Promise<{ type: ReportType; messageId: number } | undefined> {
  const [row] = await sqlRows(
    exec,
    sql<Columns<typeof reports, 'type' | 'message_id'>>`SELECT type, message_id FROM reports WHERE id = ${id}`,
  );
  return row && { type: row.type, messageId: row.message_id };
}

/** Every report of one content, oldest first, with its reporter. */
export function reportsOfContent(
  exec: Executor,
  type: ReportType,
  messageId: number,
): Promise<Columns<typeof reports, 'id' | 'reporter_id' | 'reason'>[]> {
  return sqlRows(
    exec,
    sql<
      Columns<typeof reports, 'id' | 'reporter_id' | 'reason'>
    >`SELECT id, reporter_id, reason FROM reports WHERE type = ${type} AND message_id = ${messageId} ORDER BY id`,
  );
}
