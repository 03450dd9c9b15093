import { Type, type Static } from 'typebox';
import {
  DEFAULT_PAGE,
  MAX_PAGE,
  NOTIFICATION_FILTERS,
  NOTIFICATION_TOPICS,
  type NotificationFilter,
  type NotificationTopic,
} from '../notifications';
import { Digits, Nullable } from './shared';

export type { NotificationFilter, NotificationTopic };

/*
 * The notifications' calls (docs/product.md#notifications). Unseen events of
 * one topic on one target (a picture, a comment or an item) fold into one notification; its `id` is its latest
 * event's id, and its actor fields are that event's.
 */

const Topic = Type.Enum(NOTIFICATION_TOPICS);

/** docs/product.md#notifications. */
export const Notification = Type.Object({
  id: Type.Integer(),
  b: Type.Object({ topic: Topic, seen: Type.Boolean(), createdOn: Type.String() }),
  /** The latest actor's. */
  actorId: Nullable(Type.Integer()),
  username: Nullable(Type.String()),
  profileUrl: Nullable(Type.String()),
  message: Nullable(Type.String()),
  commentId: Nullable(Type.Integer()),
  pictureId: Nullable(Type.Integer()),
  /** Cents (a like, a reaction, a trade), or the wall place for IMAGE_OVERTOOK. */
  amount: Nullable(Type.Integer()),
  item: Nullable(Type.String()),
  /** How many events this notification folds. */
  multiplicity: Type.Integer(),
  /** How many different users caused them. */
  uniqueActors: Type.Integer(),
});
export type Notification = Static<typeof Notification>;

export const NotificationList = Type.Array(Notification);

/** GET /api/user-notifications: newest first, `limit` at a time, before the id `cursor` (the last one shown). */
export const NotificationsQuery = Type.Object({
  filter: Type.Optional(Type.Enum(NOTIFICATION_FILTERS)),
  topic: Type.Optional(Topic),
  cursor: Type.Optional(Digits(15, 'the id of the last notification already shown')),
  limit: Type.Optional(Digits(3, `1 to ${MAX_PAGE}, ${DEFAULT_PAGE} by default`)),
});
export type NotificationsQuery = Static<typeof NotificationsQuery>;

export const ValueAnswer = Type.Object({ value: Type.Integer() });
export type ValueAnswer = Static<typeof ValueAnswer>;

export const NotificationPreview = Type.Object({ notifications: NotificationList, unreadCount: Type.Integer() });
export type NotificationPreview = Static<typeof NotificationPreview>;

/** POST /api/user-notifications/read: `id` and the semicolon-joined `unreadIds` are marked seen, the caller's only. */
export const ReadBody = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
  unreadIds: Type.Optional(
    Type.String({ maxLength: 1700, pattern: '^[0-9;]*$', description: 'Notification ids joined by ";"' }),
  ),
});
export type ReadBody = Static<typeof ReadBody>;

/** The `newNotification` live message: something new for the user; the client refetches its count and lists. */
export interface NewNotificationMessage {
  topic: NotificationTopic;
}

/** The `notificationsRead` live message: the user read some (`all` false) or all of them in one of their tabs. */
export interface NotificationsReadMessage {
  all: boolean;
}
