import type { DecideReportBody } from '../../../../../common/api/moderation';
import {
  MAX_MODERATION_TEXT,
  MODERATION_CATEGORIES,
  SUSPEND_DAYS,
  type ModerationAction,
  type ModerationCategory,
  type SuspendDays,
} from '../../../../../common/moderation';

/* The moderation forms' checks before sending (docs/product.md#moderation-screens); the server checks the same. */

export const FORM_TEXT = {
  chooseAction: 'Choose dismiss or remove.',
  chooseCategory: 'Choose a category.',
  reasonsRequired: 'Write the statement of reasons.',
  reasonsTooLong: `At most ${MAX_MODERATION_TEXT} characters.`,
  appealRequired: 'Write why the decision should change.',
  alreadyDecided: 'This content was already decided.',
  alreadyAppealed: 'You already appealed this decision.',
  appealClosed: 'The time to appeal this decision is over.',
} as const;

/** The suspension choices, 'none' first; 0 days is for good. */
export const SUSPEND_CHOICES: { value: 'none' | `${SuspendDays}`; label: string }[] = [
  { value: 'none', label: 'Do not suspend' },
  ...SUSPEND_DAYS.map((d) => ({
    value: `${d}` as const,
    label: d === 0 ? 'For good' : d === 1 ? '1 day' : `${d} days`,
  })),
];

export interface DecideInput {
  reportId: number;
  action: ModerationAction | '';
  category: ModerationCategory | '';
  reasons: string;
  suspend: 'none' | `${SuspendDays}`;
  refund: boolean;
}

/** A statement's problem, or undefined: required (spaces alone are none), at most MAX_MODERATION_TEXT characters. */
export function textError(text: string, required: string): string | undefined {
  if (text.trim() === '') return required;
  if (text.trim().length > MAX_MODERATION_TEXT) return FORM_TEXT.reasonsTooLong;
  return undefined;
}

export type DecideCheck = { ok: true; body: DecideReportBody } | { ok: false; errors: Record<string, string> };

/** The decide form's input checked and turned into the call's body; the refund goes only with a removal. */
export function checkDecision(input: DecideInput): DecideCheck {
  const errors: Record<string, string> = {};
  if (input.action === '') errors.action = FORM_TEXT.chooseAction;
  if (!MODERATION_CATEGORIES.some((c) => c.value === input.category)) errors.category = FORM_TEXT.chooseCategory;
  const reasons = textError(input.reasons, FORM_TEXT.reasonsRequired);
  if (reasons) errors.reasons = reasons;
  if (Object.keys(errors).length > 0 || input.action === '' || input.category === '') return { ok: false, errors };
  const body: DecideReportBody = {
    reportId: input.reportId,
    action: input.action,
    category: input.category,
    reasons: input.reasons.trim(),
  };
  if (input.suspend !== 'none') body.suspendDays = Number(input.suspend) as SuspendDays;
  if (input.action === 'remove' && input.refund) body.refund = true;
  return { ok: true, body };
}
