import type { AdminAppeal, Appeal, ModerationLog, UserDecision } from '../../../../common/api/moderation';
import { appealDeadline, type ModerationCategory } from '../../../../common/moderation';
import { isoTime } from '../../../../common/time';
import type { DecisionRow, LogRow, PendingAppealRow } from './moderation.repository';

/* The fields of moderation that leave the server (docs/product.md#moderation). */

const time = (at: Date | string | null): string | null => (at === null ? null : isoTime(at));

export function presentAppeal(r: DecisionRow): Appeal | null {
  if (r.appeal_status === null) return null;
  return { status: r.appeal_status, text: r.appeal_text ?? '', decidedOn: time(r.appeal_decided_at) };
}

/** What the author's list and the console's appeals both say of a decision. */
function decisionFields(r: DecisionRow) {
  return {
    decisionId: Number(r.id),
    contentType: r.content_type,
    contentId: Number(r.content_id),
    action: r.action,
    category: r.category as ModerationCategory,
    reasons: r.reasons,
    suspended: r.suspend_days !== null,
    suspendedUntil: time(r.suspended_until),
    refunded: Number(r.refunded),
    decidedOn: isoTime(r.decided_at),
  };
}

export function presentUserDecision(r: DecisionRow): UserDecision {
  return {
    ...decisionFields(r),
    appealUntil: isoTime(appealDeadline(new Date(r.decided_at))),
    appeal: presentAppeal(r),
  };
}

export function presentAdminAppeal(r: PendingAppealRow): AdminAppeal {
  return {
    ...decisionFields(r),
    decidedBy: { id: Number(r.decided_by), username: r.decider_name ?? '' },
    author: { id: Number(r.author_id), username: r.author_name ?? '' },
    contentText: r.content_text,
    appealText: r.appeal_text ?? '',
    appealedOn: isoTime(r.appeal_created_at ?? r.decided_at),
  };
}

/** The public log: when, what kind, which category, what was done; never who or what was said. */
export function presentLog(rows: LogRow[], next: number | null): ModerationLog {
  return {
    entries: rows.map((r) => ({
      decidedOn: isoTime(r.decided_at),
      contentType: r.content_type,
      category: r.category as ModerationCategory,
      action: r.action,
      suspended: r.suspend_days !== null,
      appeal: r.appeal_status === 'UPHELD' || r.appeal_status === 'REVERSED' ? r.appeal_status : null,
    })),
    cursor: next === null ? null : String(next),
  };
}
