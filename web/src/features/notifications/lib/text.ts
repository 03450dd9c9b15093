import type { Notification } from '../../../../../common/api/notifications';
import { itemName, itemOf } from '../../../../../common/items';
import { formatMoney } from '../../../../../common/money';

/**
 * A kind this client does not know (the server added it later): moderation's kinds name a decision, a report or an
 * appeal (docs/product.md#moderation-screens). A reporter's outcome goes to the public log, an author's to /moderation.
 */
export function unknownKindLink(topic: string): string {
  if (/REPORT/.test(topic)) return '/moderation-log';
  if (/MODERAT|DECISION|APPEAL|SUSPEN|REMOV|RESTOR/.test(topic)) return '/moderation';
  return '/notifications';
}

const known = (topic: string): boolean => topic in TOPIC_LABELS;

/** Where a click on a notification goes (docs/product.md#notifications). */
export function linkOf(n: Notification): string {
  if (!known(n.b.topic)) return unknownKindLink(n.b.topic);
  switch (n.b.topic) {
    case 'ITEM_SOLD':
    case 'ITEM_BOUGHT':
      return `/items-detail/${n.item ?? ''}/item-store`;
    case 'IMAGE_COMMENT':
    case 'COMMENT_REPLY':
    case 'IMAGE_COMMENT_REACTED':
      return `/image/profile/${n.pictureId ?? ''}#${n.commentId ?? ''}`;
    case 'IMAGE_OVERTOOK':
      return `/?index=${n.amount ?? 0}`;
    case 'IMAGE_LIKE':
      return `/image/profile/${n.pictureId ?? ''}`;
    case 'SYSTEM_MESSAGE':
      return '/notifications';
    case 'MODERATION_DECISION':
    case 'APPEAL_DECIDED':
      return '/moderation';
    case 'REPORT_OUTCOME':
      return '/moderation-log';
    default:
      return unknownKindLink(n.b.topic);
  }
}

const noticeItem = (n: Notification) => (n.item ? itemName(n.item) : 'an item');
const money = (n: Notification) => formatMoney(n.amount ?? 0);

/** Who did it: the latest actor, and how many others. */
export function actorsOf(n: Notification): string {
  const name = n.username ?? 'Someone';
  const others = n.uniqueActors - 1;
  return others > 0 ? `${name} and ${others} other${others === 1 ? '' : 's'}` : name;
}

/** What happened, after the actors (the latest event's figures when several are folded). */
export function whatOf(n: Notification): string {
  switch (n.b.topic) {
    case 'IMAGE_COMMENT':
      return 'commented on your picture';
    case 'COMMENT_REPLY':
      return 'replied to your comment';
    case 'IMAGE_COMMENT_REACTED':
      return `reacted ${n.item ? (itemOf(n.item)?.emoji ?? '') : ''} to your comment`.replace('  ', ' ');
    case 'ITEM_SOLD':
      return `bought your ${noticeItem(n)} for ${money(n)}`;
    case 'ITEM_BOUGHT':
      return `sold you ${noticeItem(n)} for ${money(n)}`;
    case 'IMAGE_LIKE':
      return `put ${money(n)} on your picture`;
    case 'IMAGE_OVERTOOK':
      return `overtook your picture: it is now #${(n.amount ?? 0) + 1}`;
    case 'SYSTEM_MESSAGE':
    case 'MODERATION_DECISION':
    case 'REPORT_OUTCOME':
    case 'APPEAL_DECIDED':
      return n.message ?? '';
    default:
      return n.message ?? '';
  }
}

/** Moderation's notices: their message is the whole line, no actor is named (docs/product.md#moderation). */
const MODERATION_NOTICES: ReadonlySet<string> = new Set(['MODERATION_DECISION', 'REPORT_OUTCOME', 'APPEAL_DECIDED']);

/** The whole line, e.g. "ann and 2 others commented on your picture (4 times)". */
export function textOf(n: Notification): string {
  if (n.b.topic === 'SYSTEM_MESSAGE') return n.message ?? '';
  // A moderation notice, or a kind added after this client was built: its message, or a line that still makes sense.
  if (MODERATION_NOTICES.has(n.b.topic) || !known(n.b.topic)) {
    return n.message ?? 'A moderator made a decision. Open it to read more.';
  }
  const times = n.multiplicity > 1 ? ` (${n.multiplicity} times)` : '';
  return `${actorsOf(n)} ${whatOf(n)}${times}`;
}

/** The type filter's choices. */
export const TOPIC_LABELS = {
  IMAGE_COMMENT: 'Comments',
  COMMENT_REPLY: 'Replies',
  IMAGE_COMMENT_REACTED: 'Reactions',
  IMAGE_LIKE: 'Likes',
  IMAGE_OVERTOOK: 'Overtaken',
  ITEM_SOLD: 'Sold',
  ITEM_BOUGHT: 'Bought',
  SYSTEM_MESSAGE: 'System',
  MODERATION_DECISION: 'Moderation',
  REPORT_OUTCOME: 'Reports',
  APPEAL_DECIDED: 'Appeals',
} as const;
