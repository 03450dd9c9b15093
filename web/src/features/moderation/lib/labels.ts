import type { ModerationCategory, ModeratedType, ModerationAction } from '../../../../../common/moderation';
import { MODERATION_CATEGORIES } from '../../../../../common/moderation';
import { formatDateTime } from '../../../../../common/time';

/* The words moderation's screens use for its values (docs/product.md#moderation-screens). */

/** A category as the report popup and the decide form name it ('Illegal Content'), not its code. */
export const categoryLabel = (value: string): string =>
  MODERATION_CATEGORIES.find((c) => c.value === value)?.label ?? value;

export const CONTENT_LABELS: Record<ModeratedType, string> = {
  COMMENT: 'Comment',
  CHAT: 'Chat message',
  PICTURE: 'Picture',
};
export const contentLabel = (type: string): string => CONTENT_LABELS[type as ModeratedType] ?? type;

export const ACTION_LABELS: Record<ModerationAction, string> = { dismiss: 'Dismissed', remove: 'Removed' };
export const actionLabel = (action: string): string => ACTION_LABELS[action as ModerationAction] ?? action;

export const APPEAL_LABELS = {
  PENDING: 'Appeal pending',
  UPHELD: 'Appeal upheld',
  REVERSED: 'Appeal reversed',
} as const;

export type { ModerationCategory };

/** A suspension in words: 'Suspended until {date}', 'Suspended for good', or undefined when there is none. */
export function suspensionText(suspended: boolean, until: string | null | undefined): string | undefined {
  if (!suspended) return undefined;
  return until ? `Suspended until ${formatDateTime(until)}` : 'Suspended for good';
}
