import type { Notification, NotificationTopic } from '../../../../common/api/notifications';
import { isoTime } from '../../../../common/time';
import { imageUrl } from '../../storage/storage';

/** One notification as the repository reads it: its fold's figures and its latest event. */
export interface NotificationRow {
  id: number | string;
  multiplicity: number;
  unique_actors: number;
  seen: boolean;
  topic: string;
  created_at: Date | string;
  picture_id: number | string | null;
  comment_id: number | string | null;
  amount: number | string | null;
  item: string | null;
  message: string | null;
  username: string | null;
  profile_key: string | null;
}

const num = (v: number | string | null) => (v === null ? null : Number(v));

/** The fields that leave the server (docs/product.md#notifications). */
export function presentNotification(r: NotificationRow): Notification {
  return {
    id: Number(r.id),
    b: { topic: r.topic as NotificationTopic, seen: r.seen, createdOn: isoTime(r.created_at) },
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
