import type { DecideAppealBody, DecideReportBody } from '../../../../common/api/moderation';
import { appealDeadline, suspensionEnd, type ModeratedType } from '../../../../common/moderation';
import { isoTime } from '../../../../common/time';
import type { Executor } from '../../db/connection';
import { audience, type Work } from '../../db/unit-of-work';
import { conflict, fieldError, notFound } from '../../http/errors';
import * as ledger from '../../ledger/commands';
import type { Mail } from '../../mail/mailer';
import { queueMail, type QueuedMail } from '../../mail/outbox';
import { chatMessageForModeration, setChatMessageRemoved } from '../chat/chat.service';
import { commentForModeration, setCommentRemoved } from '../comments/comments.service';
import { cancelAllOffers } from '../market/market.commands';
import { recordEvents, settleEventsAbout, type NotificationEvent } from '../notifications/notifications.service';
import { pictureForModeration, setPictureRemoved } from '../pictures/pictures.service';
import { reportedContent, reportsOfContent } from '../reports/reports.service';
import { moderationPolicy } from './moderation.policy';
import * as repo from './moderation.repository';
import { appealNotice, authorMail, authorNotice, reporterNotice, type DecisionFacts } from './notices';
import { holdSuspension } from '../../http/membership';

/*
 * Moderation's multi-row changes (docs/product.md#moderation), each one function taking the unit of work: the
 * decision, the content's removal, the refund through the ledger, the suspension with its cancelled offers, the
 * notifications, the mail and the live events commit together or not at all.
 */

export const TEXT = {
  noReport: 'Report not found.',
  contentGone: 'The reported content no longer exists.',
  decided: 'This content was already decided.',
  dismissSuspends: 'A dismissal suspends nobody: remove the content to suspend its author.',
  dismissRefunds: 'Only removed content is refunded.',
  noAppeal: 'This decision has no appeal.',
  appealDecided: 'This appeal was already decided.',
  blankReasons: 'Write the statement of reasons.',
} as const;

/** Where the mails a decision causes come from: the tenant's brand and public origin. */
export interface MailFrom {
  brand: string;
  origin: string;
}

interface Content {
  authorId: number;
  removed: boolean;
}

/** Each moderated type's content: who wrote it, and how the owning module removes and restores it. */
const CONTENT: Record<
  ModeratedType,
  {
    find(exec: Executor, id: number): Promise<Content | undefined>;
    setRemoved(exec: Executor, id: number, at: Date | null): Promise<boolean>;
    /** The author's spend on it, as the ledger names it. */
    spend: 'COMMENT' | 'CHAT_MESSAGE' | 'IMAGE';
  }
> = {
  COMMENT: { find: commentForModeration, setRemoved: setCommentRemoved, spend: 'COMMENT' },
  CHAT: {
    find: async (exec, id) => {
      const m = await chatMessageForModeration(exec, id);
      return m && { authorId: m.senderId, removed: m.removed };
    },
    setRemoved: setChatMessageRemoved,
    spend: 'CHAT_MESSAGE',
  },
  PICTURE: { find: pictureForModeration, setRemoved: setPictureRemoved, spend: 'IMAGE' },
};

export interface Decided {
  decisionId: number;
  action: DecideReportBody['action'];
  contentType: ModeratedType;
  contentId: number;
  reports: number[];
  /** Mails queued in the transaction, for a first try once it committed. */
  mails: QueuedMail[];
}

/**
 * POST /api/admin/reports/decide: one decision on the reported content, deciding every report of it. Remove hides
 * the content everywhere (its owning module's removal) and may refund the author's spend on it; a suspension is
 * recorded on the author, cancels their open market offers and reaches their sockets. The author is told (with the
 * statement of reasons and how to appeal) when the decision acts on them; each reporter is told the outcome.
 */
export async function decideReport(
  work: Work,
  input: DecideReportBody & { adminId: number; now: Date; feeBps: number; from: MailFrom },
): Promise<Decided> {
  if (input.reasons.trim() === '') throw fieldError('reasons', TEXT.blankReasons);
  if (input.action === 'dismiss' && input.suspendDays !== undefined) {
    throw fieldError('suspendDays', TEXT.dismissSuspends);
  }
  if (input.action === 'dismiss' && input.refund === true) throw fieldError('refund', TEXT.dismissRefunds);
  const reported = await reportedContent(work.tx, input.reportId);
  if (!reported) throw notFound(TEXT.noReport);
  const { type, messageId: contentId } = reported;
  const kind = CONTENT[type];
  const content = await kind.find(work.tx, contentId);
  if (!content) throw notFound(TEXT.contentGone);
  const suspendDays = input.suspendDays ?? null;
  const suspendedUntil = suspendDays === null ? null : suspensionEnd(input.now, suspendDays);
  // First, so that of two admins deciding at once the second waits here for the first and writes nothing.
  const decisionId = await repo.insertDecision(work.tx, {
    contentType: type,
    contentId,
    authorId: content.authorId,
    action: input.action,
    category: input.category,
    reasons: input.reasons,
    suspendDays,
    suspendedUntil,
    decidedBy: input.adminId,
    at: input.now,
  });
  if (decisionId === undefined) throw conflict({ message: TEXT.decided });
  const reports = await reportsOfContent(work.tx, type, contentId);
  // Before the refund touches the author's account: a suspension first waits for the author's calls in flight,
  // which may hold that account (http/membership.ts); the appeal's `suspend` takes the lock itself.
  if (suspendDays !== null) await holdSuspension(work, content.authorId);

  let refunded = 0;
  if (input.action === 'remove') {
    await kind.setRemoved(work.tx, contentId, input.now);
    if (type !== 'CHAT')
      await settleEventsAbout(work, type === 'PICTURE' ? { pictureId: contentId } : { commentId: contentId });
    work.emit('moderation', 'contentRemoved', { contentType: type, contentId });
    if (input.refund === true) {
      const refund = await ledger.refundSpend(work, {
        userId: content.authorId,
        kind: kind.spend,
        resourceId: String(contentId),
        decisionId,
        contentType: type,
        contentId,
      });
      if (refund) {
        refunded = refund.amount;
        await repo.setRefunded(work.tx, decisionId, refunded);
      }
    }
  }
  if (suspendDays !== null) {
    await suspend(work, content.authorId, input.now);
    await cancelAllOffers(work, { now: input.now, feeBps: input.feeBps }, content.authorId);
  }

  const facts: DecisionFacts = {
    contentType: type,
    action: input.action,
    category: input.category,
    reasons: input.reasons,
    suspended: suspendDays !== null,
    suspendedUntil,
    refunded,
    appealUntil: appealDeadline(input.now),
  };
  const events: NotificationEvent[] = [];
  const actsOnAuthor = input.action === 'remove' || suspendDays !== null;
  if (actsOnAuthor)
    events.push({ userId: content.authorId, topic: 'MODERATION_DECISION', message: authorNotice(facts) });
  for (const reporterId of new Set(reports.map((r) => Number(r.reporter_id)))) {
    if (reporterId === content.authorId) continue;
    events.push({ userId: reporterId, topic: 'REPORT_OUTCOME', message: reporterNotice(facts) });
  }
  await recordEvents(work, events, input.now);
  const mails: QueuedMail[] = [];
  if (actsOnAuthor) {
    const mail = await mailTo(work.tx, content.authorId, input.from, authorMail({ ...facts, ...input.from }));
    if (mail) mails.push(await queueMail(work.tx, mail, { now: input.now }));
  }
  return {
    decisionId,
    action: input.action,
    contentType: type,
    contentId,
    reports: reports.map((r) => Number(r.id)),
    mails,
  };
}

/** The author's suspension from their standing decisions, told to their sockets. */
async function suspend(work: Work, userId: number, now: Date): Promise<void> {
  await holdSuspension(work, userId);
  const s = await repo.applySuspensions(work.tx, userId);
  const until = s.suspended_until === null ? null : new Date(s.suspended_until);
  work.emit(
    'notification',
    'suspension',
    {
      suspended: s.suspended_for_good || (until !== null && until > now),
      suspendedUntil: s.suspended_for_good || until === null ? null : isoTime(until),
    },
    audience.user(userId),
  );
}

/** A mail to a user, when they have an address. */
async function mailTo(
  exec: Executor,
  userId: number,
  from: MailFrom,
  content: { subject: string; text: string },
): Promise<Mail | undefined> {
  const contact = await repo.contactOf(exec, userId);
  if (!contact?.email) return undefined;
  return { to: contact.email, senderName: from.brand, ...content };
}

export interface AppealDecided {
  decisionId: number;
  status: 'UPHELD' | 'REVERSED';
  mails: QueuedMail[];
}

/**
 * POST /api/admin/appeals/decide: an admin other than the decider (unless none exists) upholds or reverses the
 * decision. A reversal restores the content (live) and lifts the suspension the decision caused; the refund, and
 * the market offers a suspension cancelled, stay as they are. The author is told.
 */
export async function decideAppeal(
  work: Work,
  input: DecideAppealBody & { adminId: number; now: Date; from: MailFrom },
): Promise<AppealDecided> {
  if (input.reasons.trim() === '') throw fieldError('reasons', TEXT.blankReasons);
  const decision = await repo.decisionById(work.tx, input.decisionId, true);
  if (!decision) throw notFound(TEXT.noAppeal);
  if (decision.appeal_status === null) throw notFound(TEXT.noAppeal);
  if (decision.appeal_status !== 'PENDING') throw conflict({ message: TEXT.appealDecided });
  moderationPolicy.authorize({ id: input.adminId, isAdmin: true }, 'decideAppeal', {
    decidedBy: Number(decision.decided_by),
    anotherAdmin: await repo.anotherAdmin(work.tx, input.adminId),
  });
  const reversed = input.outcome === 'reverse';
  const status = reversed ? 'REVERSED' : 'UPHELD';
  const decided = await repo.decideAppeal(work.tx, {
    decisionId: input.decisionId,
    status,
    reasons: input.reasons,
    by: input.adminId,
    at: input.now,
  });
  if (!decided) throw conflict({ message: TEXT.appealDecided });
  const contentType = decision.content_type;
  const authorId = Number(decision.author_id);
  if (reversed) {
    if (decision.action === 'remove') {
      const contentId = Number(decision.content_id);
      await CONTENT[contentType].setRemoved(work.tx, contentId, null);
      work.emit('moderation', 'contentRestored', { contentType, contentId });
    }
    if (decision.suspend_days !== null) await suspend(work, authorId, input.now);
  }
  const message = appealNotice({ contentType, reversed, reasons: input.reasons });
  await recordEvents(work, [{ userId: authorId, topic: 'APPEAL_DECIDED', message }], input.now);
  const mails: QueuedMail[] = [];
  const mail = await mailTo(work.tx, authorId, input.from, {
    subject: reversed ? 'Your appeal was granted' : 'Your appeal was turned down',
    text: `Hello,\n\n${message}\n\n${input.from.brand}\n`,
  });
  if (mail) mails.push(await queueMail(work.tx, mail, { now: input.now }));
  return { decisionId: input.decisionId, status, mails };
}
