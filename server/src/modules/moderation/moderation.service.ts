import { APPEAL_DAYS, canAppeal } from '../../../../common/moderation';
import type { AppContext } from '../../context';
import { conflict, fieldError } from '../../http/errors';
import { moderationPolicy } from './moderation.policy';
import * as repo from './moderation.repository';

/* Moderation's reads and single-row changes (docs/product.md#moderation). */

export const TEXT = {
  appealLate: `An appeal must be sent within ${APPEAL_DAYS} days of the decision.`,
  appealedTwice: 'You already appealed this decision.',
  blankText: 'Say why the decision should be reversed.',
} as const;

/** Decisions a user's list shows at most. */
const USER_DECISIONS = 100;
/** Entries per page of the public log. */
export const LOG_PAGE = 50;
/** Pending appeals the console lists at most. */
const PENDING_APPEALS = 200;

/** GET /api/user/moderation: the decisions that removed the user's content, newest first. */
export function userDecisions(ctx: AppContext, userId: number): Promise<repo.DecisionRow[]> {
  return repo.decisionsOf(ctx.db, userId, USER_DECISIONS);
}

/**
 * POST /api/user/moderation/appeal: the author's one appeal of a removal, within APPEAL_DAYS of it. Anyone else's
 * call answers 404 (moderation.policy.ts); a second appeal 409.
 */
export async function appeal(
  ctx: AppContext,
  userId: number,
  input: { decisionId: number; text: string },
): Promise<repo.DecisionRow> {
  if (input.text.trim() === '') throw fieldError('text', TEXT.blankText);
  const decision = await repo.decisionById(ctx.db, input.decisionId);
  const appealable = decision?.action === 'remove' ? { authorId: Number(decision.author_id) } : undefined;
  moderationPolicy.authorize({ id: userId }, 'appeal', appealable);
  const now = ctx.now();
  if (!canAppeal(new Date(decision!.decided_at), now)) throw fieldError('decisionId', TEXT.appealLate);
  if (!(await repo.insertAppeal(ctx.db, { decisionId: input.decisionId, text: input.text, at: now }))) {
    throw conflict({ message: TEXT.appealedTwice });
  }
  return (await repo.decisionById(ctx.db, input.decisionId))!;
}

/** GET /api/admin/appeals: the appeals waiting for an admin, oldest first. */
export function pendingAppeals(ctx: AppContext): Promise<repo.PendingAppealRow[]> {
  return repo.pendingAppeals(ctx.db, PENDING_APPEALS);
}

/** GET /api/moderation-log: a page of the public log, newest first, and the cursor of the next one. */
export async function moderationLog(
  ctx: AppContext,
  cursor: string | undefined,
): Promise<{ rows: repo.LogRow[]; next: number | null }> {
  const rows = await repo.logPage(ctx.reads.lagTolerant(), {
    before: cursor === undefined ? null : Number(cursor),
    limit: LOG_PAGE + 1,
  });
  const page = rows.slice(0, LOG_PAGE);
  return { rows: page, next: rows.length > LOG_PAGE ? Number(page[page.length - 1]!.id) : null };
}
