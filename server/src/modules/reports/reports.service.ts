import type { ReportBody } from '../../../../common/api/reports';
import { BLANK_DESCRIPTION_TEXT, isBlankDescription, type ReportType } from '../../../../common/reports';
import { isoTime } from '../../../../common/time';
import type { AppContext } from '../../context';
import type { Executor } from '../../db/connection';
import { conflict, fieldError, notFound } from '../../http/errors';
import { commentExists } from '../comments/comments.service';
import { pictureAuthorIn } from '../pictures/pictures.service';
import * as reports from './reports.repository';

/*
 * Reports of comments and chat messages (POST /api/user/report-message, docs/product.md#reports and its
 * clarifications): the message must exist, and a user reports a message once. The admin console lists them.
 */

/** How each type of report finds its message. CHAT reads `chat_messages`, the chat's table. */
export const reportTargets: Record<ReportType, (exec: Executor, messageId: number) => Promise<boolean>> = {
  COMMENT: commentExists,
  CHAT: reports.chatMessageExists,
  PICTURE: async (exec, id) => (await pictureAuthorIn(exec, id)) !== undefined,
};

export const TEXT = {
  noMessage: 'Message not found.',
  alreadyReported: 'You already reported this message.',
} as const;

export async function reportMessage(ctx: AppContext, reporterId: number, body: ReportBody): Promise<{ id: number }> {
  if (isBlankDescription(body.description)) throw fieldError('description', BLANK_DESCRIPTION_TEXT);
  if (!(await reportTargets[body.type](ctx.db, body.messageId))) throw notFound(TEXT.noMessage);
  const id = await reports.insertReport(ctx.db, {
    reporterId,
    type: body.type,
    messageId: body.messageId,
    reason: body.reason,
    description: body.description,
  });
  if (id === undefined) throw conflict({ message: TEXT.alreadyReported });
  return { id };
}

export interface ReportListing {
  id: number;
  type: ReportType;
  messageId: number;
  reason: string;
  description: string;
  reporter: { id: number; username: string };
  /** The reported text (a picture's title); null when the message is gone. */
  messageText: string | null;
  createdOn: string;
  /** The decision on the reported content (docs/product.md#moderation); null while it is open. */
  decision: { decisionId: number; action: 'dismiss' | 'remove'; decidedOn: string } | null;
}

/** Reports, newest first (for the admin console's Reports tab, docs/product.md#admin); paginated by id. */
export async function listReports(
  exec: Executor,
  page: { limit?: number; beforeId?: number } = {},
): Promise<ReportListing[]> {
  const limit = Math.min(Math.max(page.limit ?? 50, 1), 200);
  const found = await reports.reportsPage(exec, { limit, beforeId: page.beforeId });
  return found.map((r) => ({
    id: r.id,
    type: r.type,
    messageId: r.message_id,
    reason: r.reason,
    description: r.description,
    reporter: { id: r.reporter_id, username: r.reporter_name ?? '' },
    messageText: r.message_text,
    createdOn: isoTime(r.created_at),
    decision:
      r.decision_id === null || r.decision_action === null || r.decided_at === null
        ? null
        : { decisionId: Number(r.decision_id), action: r.decision_action, decidedOn: isoTime(r.decided_at) },
  }));
}

/** A report's content, for a moderator's decision (docs/product.md#moderation); undefined when there is no report. */
export function reportedContent(exec: Executor, reportId: number) {
  return reports.reportedContent(exec, reportId);
}

/** Every report of one content, oldest first: the decision on it decides them all (docs/product.md#moderation). */
export function reportsOfContent(exec: Executor, type: ReportType, messageId: number) {
  return reports.reportsOfContent(exec, type, messageId);
}
