import { formatMoney } from '../../../../common/money';
import {
  APPEAL_DAYS,
  MODERATION_CATEGORIES,
  type ModeratedType,
  type ModerationAction,
} from '../../../../common/moderation';

/*
 * What moderation tells the people involved (docs/product.md#moderation): the author's statement of reasons (the
 * notification's text and the mail), the reporter's outcome (never the author's name), an appeal's outcome. Pure.
 */

const NAMES: Record<ModeratedType, string> = { COMMENT: 'comment', CHAT: 'chat message', PICTURE: 'picture' };

/** A moment as every reader reads it alike: '2026-11-26 06:20 UTC'. */
export const utcText = (at: Date): string => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** Free text as a sentence: ended with a stop unless it has one. */
const sentence = (text: string): string => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

export const categoryLabel = (category: string): string =>
  MODERATION_CATEGORIES.find((c) => c.value === category)?.label ?? category;

export interface DecisionFacts {
  contentType: ModeratedType;
  action: ModerationAction;
  category: string;
  reasons: string;
  /** Whether the decision suspended the author, and until when (null: for good). */
  suspended: boolean;
  suspendedUntil: Date | null;
  refunded: number;
  appealUntil: Date;
}

function suspensionText(d: DecisionFacts): string {
  if (!d.suspended) return '';
  return d.suspendedUntil
    ? ` Your account is suspended until ${utcText(d.suspendedUntil)}: you can sign in and read, but not post, pay or trade, and your open market offers were cancelled.`
    : ' Your account is suspended for good: you can sign in and read, but not post, pay or trade, and your open market offers were cancelled.';
}

/** The author's notification: the decision, its category, the statement of reasons and how to appeal. */
export function authorNotice(d: DecisionFacts): string {
  const what = d.action === 'remove' ? `A moderator removed your ${NAMES[d.contentType]}` : 'A moderator decided';
  const refund = d.refunded > 0 ? ` ${formatMoney(d.refunded)} you paid for it was refunded.` : '';
  return (
    `${what} (${categoryLabel(d.category)}). Reasons: ${sentence(d.reasons)}${suspensionText(d)}${refund}` +
    ` You can appeal once, within ${APPEAL_DAYS} days (until ${utcText(d.appealUntil)}), from your moderation decisions.`
  );
}

/** The author's mail: the same, at more length. */
export function authorMail(d: DecisionFacts & { brand: string; origin: string }): { subject: string; text: string } {
  return {
    subject: d.action === 'remove' ? `Your ${NAMES[d.contentType]} was removed` : 'A moderation decision',
    text:
      `Hello,\n\n${authorNotice(d)}\n\n` +
      `Category: ${categoryLabel(d.category)}\nStatement of reasons: ${d.reasons}\n\n` +
      `To appeal, sign in at ${d.origin} and open your moderation decisions. An administrator other than the one ` +
      `who decided will read your appeal.\n\n${d.brand}\n`,
  };
}

/** A reporter's notification: what became of their report, never whose content it was. */
export function reporterNotice(d: Pick<DecisionFacts, 'contentType' | 'action' | 'category'>): string {
  const outcome =
    d.action === 'remove'
      ? `the ${NAMES[d.contentType]} was removed (${categoryLabel(d.category)})`
      : `the ${NAMES[d.contentType]} was kept`;
  return `Thank you for your report of a ${NAMES[d.contentType]}: a moderator reviewed it and ${outcome}.`;
}

/** The author's notification of their appeal's outcome. */
export function appealNotice(a: { contentType: ModeratedType; reversed: boolean; reasons: string }): string {
  return a.reversed
    ? `Your appeal was granted: the decision on your ${NAMES[a.contentType]} was reversed and it is restored, with any suspension it caused lifted. Reasons: ${sentence(a.reasons)}`
    : `Your appeal was turned down: the decision on your ${NAMES[a.contentType]} stands. Reasons: ${sentence(a.reasons)}`;
}
