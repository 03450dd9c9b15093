/* Moderation's rules and limits, for the server and the web client alike (docs/product.md#moderation; the schemas
 * are in common/api/moderation.ts). */
import { REPORT_REASONS } from './reports';

/** What a decision is filed under: the report categories, plus illegal content. */
export const MODERATION_CATEGORIES = [
  ...REPORT_REASONS,
  { value: 'illegal-content', label: 'Illegal Content' },
] as const;
export type ModerationCategory = (typeof MODERATION_CATEGORIES)[number]['value'];

/** What can be reported and decided on: a comment or reply, a chat message, a picture. */
export const MODERATED_TYPES = ['COMMENT', 'CHAT', 'PICTURE'] as const;
export type ModeratedType = (typeof MODERATED_TYPES)[number];

export const MODERATION_ACTIONS = ['dismiss', 'remove'] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

/** A suspension's length in days; 0 is for good. */
export const SUSPEND_DAYS = [1, 7, 30, 0] as const;
export type SuspendDays = (typeof SUSPEND_DAYS)[number];

/** A statement of reasons, and an appeal's text: required, at most this many characters. */
export const MAX_MODERATION_TEXT = 2000;

/** An author may appeal a decision once, within this many days of it. */
export const APPEAL_DAYS = 14;

export const APPEAL_STATUSES = ['PENDING', 'UPHELD', 'REVERSED'] as const;
export type AppealStatus = (typeof APPEAL_STATUSES)[number];

/** The most blocked words the admin list holds, and the longest one. */
export const MAX_BLOCKED_WORDS = 1000;
export const MAX_BLOCKED_WORD_LENGTH = 100;

const DAY_MS = 24 * 60 * 60 * 1000;

/** When a suspension ends: `days` after `from`, or null for good (0). */
export function suspensionEnd(from: Date, days: SuspendDays): Date | null {
  return days === 0 ? null : new Date(from.getTime() + days * DAY_MS);
}

/** The last moment an appeal of a decision made at `decidedAt` may be sent. */
export function appealDeadline(decidedAt: Date): Date {
  return new Date(decidedAt.getTime() + APPEAL_DAYS * DAY_MS);
}

/** Whether an appeal of a decision made at `decidedAt` may still be sent at `now`. */
export function canAppeal(decidedAt: Date, now: Date): boolean {
  return now.getTime() <= appealDeadline(decidedAt).getTime();
}
