import type { Notification, NotificationTopic } from '../../../../common/api/notifications';
import { isoTime } from '../../../../common/time';
import { imageUrl } from '../../storage/storage';
import type { NotificationRow } from './notifications.repository';

const num = (v: number | string | null) => (v === null ? null : Number(v));

/** The fields that leave the server (docs/product.md#notifications). */
export function presentNotification(r: NotificationRow): Notification {
  return {
    id: Number(r.id),
    b: { topic: r.topic as NotificationTopic, seen: r.seen, createdOn: isoTime(r.created_at) },
    actorId: num(r.actor_id),
    username: r.username,
    profileUrl: r.profile_key === null ? null : imageUrl(r.profile_key),
    message: r.message,
    commentId: num(r.comment_id),
    pictureId: num(r.picture_id),
    amount: num(r.amount),
    item: r.item,
    multiplicity: Number(r.multiplicity),
    uniqueActors: Number(r.unique_actors),
  };
}
