/** Notifications' rules both sides use (docs/product.md#notifications). */

/** The notification topics (docs/product.md#notifications). */
export const NOTIFICATION_TOPICS = [
  'IMAGE_COMMENT',
  'COMMENT_REPLY',
  'IMAGE_COMMENT_REACTED',
  'ITEM_SOLD',
  'ITEM_BOUGHT',
  'IMAGE_LIKE',
  'IMAGE_OVERTOOK',
  'SYSTEM_MESSAGE',
  /** To an author: a moderator removed their content or suspended them (docs/product.md#moderation). */
  'MODERATION_DECISION',
  /** To a reporter: what became of their report, without the author's name. */
  'REPORT_OUTCOME',
  /** To an author: how their appeal was decided. */
  'APPEAL_DECIDED',
] as const;
export type NotificationTopic = (typeof NOTIFICATION_TOPICS)[number];

export const NOTIFICATION_FILTERS = ['UNREAD', 'ALL', 'READ'] as const;
export type NotificationFilter = (typeof NOTIFICATION_FILTERS)[number];

/** The bubble's preview: the newest this many ('All notifications' shows when there are this many). */
export const PREVIEW_SIZE = 5;
/** A page of the list: 20 by default, at most 100. */
export const DEFAULT_PAGE = 20;
export const MAX_PAGE = 100;
/** How many ids one read call may name. */
export const MAX_READ_IDS = 100;
