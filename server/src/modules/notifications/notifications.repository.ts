import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { NotificationFilter } from '../../../../common/api/notifications';
import { rows, type Executor } from '../../db/connection';
import type { NotificationRow } from './notifications.presenter';
import type { NotificationEvent } from './notifications.service';

/** All of the notifications' SQL, taking the db or the transaction of a command. */

/**
 * What unseen events fold on, with their topic and user: the picture for comments, replies, likes and overtakes
 * (so a busy picture is one line), the comment for reactions, the item for trades; a system message never folds.
 */
export function targetOf(e: NotificationEvent): string {
  switch (e.topic) {
    case 'ITEM_SOLD':
    case 'ITEM_BOUGHT':
      return `i:${e.item ?? ''}`;
    case 'IMAGE_COMMENT_REACTED':
      return `c:${e.commentId ?? ''}`;
    case 'SYSTEM_MESSAGE':
      return `s:${randomUUID()}`;
    default:
      return `p:${e.pictureId ?? ''}`;
  }
}

export async function insertEvents(exec: Executor, events: readonly NotificationEvent[]): Promise<void> {
  await exec.execute(insertSql(events));
}

/** The insert of `events`, for a caller that writes it in one statement with its own changes. */
export function insertSql(events: readonly NotificationEvent[]): SQL {
  const values = sql.join(
    events.map(
      (e) =>
        sql`(${e.userId}::bigint, ${e.topic}, ${e.actorId ?? null}::bigint, ${e.pictureId ?? null}::bigint,
             ${e.commentId ?? null}::bigint, ${e.amount ?? null}::bigint, ${e.item ?? null}, ${e.message ?? null},
             ${targetOf(e)})`,
    ),
    sql`, `,
  );
  return sql`INSERT INTO notification_events
          (user_id, topic, actor_id, picture_id, comment_id, amount, item, message, target)
        VALUES ${values}`;
}

/** Unseen folds: one per topic and target. An index-only walk of notification_events_unseen. */
export async function unreadCount(exec: Executor, userId: number): Promise<number> {
  const [row] = await rows<{ n: number }>(
    exec,
    sql`SELECT count(*)::int AS n FROM (
          SELECT 1 FROM notification_events WHERE user_id = ${userId} AND NOT seen GROUP BY topic, target) g`,
  );
  return row!.n;
}

/**
 * A page of the user's notifications, newest first, before the id `before`: unseen folds (grouped now) and read
 * ones (grouped by the `fold` they were read as), each with its latest event's fields and actor.
 */
export function notificationsOf(
  exec: Executor,
  userId: number,
  q: { filter: NotificationFilter; topic: string | null; before: number | null; limit: number },
): Promise<NotificationRow[]> {
  const topic = q.topic === null ? sql`` : sql`AND topic = ${q.topic}`;
  const unread = sql`(SELECT max(id) AS id, count(*)::int AS multiplicity,
          count(DISTINCT actor_id)::int AS unique_actors, false AS seen
        FROM notification_events WHERE user_id = ${userId} AND NOT seen ${topic}
        GROUP BY topic, target
        ${q.before === null ? sql`` : sql`HAVING max(id) < ${q.before}`}
        ORDER BY 1 DESC LIMIT ${q.limit})`;
  const read = sql`(SELECT fold AS id, count(*)::int AS multiplicity,
          count(DISTINCT actor_id)::int AS unique_actors, true AS seen
        FROM notification_events WHERE user_id = ${userId} AND seen ${topic}
          ${q.before === null ? sql`` : sql`AND fold < ${q.before}`}
        GROUP BY fold ORDER BY fold DESC LIMIT ${q.limit})`;
  const groups = q.filter === 'UNREAD' ? unread : q.filter === 'READ' ? read : sql`${unread} UNION ALL ${read}`;
  return rows<NotificationRow>(
    exec,
    sql`SELECT g.id, g.multiplicity, g.unique_actors, g.seen, h.topic, h.created_at, h.picture_id, h.comment_id,
               h.amount, h.item, h.message, u.username, pi.image_key AS profile_key
        FROM (SELECT * FROM (${groups}) a ORDER BY id DESC LIMIT ${q.limit}) g
        JOIN notification_events h ON h.id = g.id
        LEFT JOIN users u ON u.id = h.actor_id
        LEFT JOIN pictures pi ON pi.id = u.profile_image_id
        ORDER BY g.id DESC`,
  );
}

const idList = (ids: readonly number[]) =>
  sql.join(
    ids.map((id) => sql`${id}::bigint`),
    sql`, `,
  );

/** Who each of these event ids notifies (ids with no event are left out). */
export function ownersOf(exec: Executor, ids: readonly number[]): Promise<{ id: number; user_id: number }[]> {
  return rows(exec, sql`SELECT id, user_id FROM notification_events WHERE id IN (${idList(ids)})`);
}

/** Each named unseen event with every older unseen event of its fold: seen, read as the newest named one. */
export async function markRead(exec: Executor, userId: number, ids: readonly number[]): Promise<void> {
  await exec.execute(
    sql`WITH heads AS (
          SELECT DISTINCT ON (topic, target) id, topic, target FROM notification_events
          WHERE user_id = ${userId} AND NOT seen AND id IN (${idList(ids)})
          ORDER BY topic, target, id DESC)
        UPDATE notification_events e SET seen = true, fold = h.id FROM heads h
        WHERE e.user_id = ${userId} AND NOT e.seen AND e.topic = h.topic AND e.target = h.target AND e.id <= h.id`,
  );
}

/** Every unseen fold of the user, read as it stands. */
export async function markAllRead(exec: Executor, userId: number): Promise<void> {
  await exec.execute(
    sql`UPDATE notification_events e SET seen = true, fold = g.head
        FROM (SELECT topic, target, max(id) AS head FROM notification_events
              WHERE user_id = ${userId} AND NOT seen GROUP BY topic, target) g
        WHERE e.user_id = ${userId} AND NOT e.seen AND e.topic = g.topic AND e.target = g.target AND e.id <= g.head`,
  );
}
