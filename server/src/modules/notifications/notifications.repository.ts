import { sql, type SQL } from 'drizzle-orm';
import type { NotificationFilter } from '../../../../common/api/notifications';
import { sqlRows, type Columns, type Executor, type SqlRow } from '../../db/connection';
import type { users } from '../../db/core.tables';
import type { pictures } from '../pictures/pictures.tables';
import type { notificationEvents } from './notifications.tables';
import type { NotificationEvent } from './notifications.service';

/** All of the notifications' SQL, taking the db or the transaction of a command. */

/**
 * Records events through the database's record_notifications (migration 0024; record_notification of 0013 for one),
 * the one statement that writes notification_events and the one place that says what an event folds on; market_order
 * calls it too. The events go as one array a field, in order.
 */
export async function insertEvents(exec: Executor, events: readonly NotificationEvent[]): Promise<void> {
  const column = (type: string, value: (e: NotificationEvent) => unknown) =>
    sql`ARRAY[${sql.join(
      events.map((e) => sql`${value(e) ?? null}::${sql.raw(type)}`),
      sql`, `,
    )}]::${sql.raw(type)}[]`;
  await exec.execute(
    sql`SELECT record_notifications(${column('bigint', (e) => e.userId)}, ${column('text', (e) => e.topic)},
          ${column('bigint', (e) => e.actorId)}, ${column('bigint', (e) => e.pictureId)},
          ${column('bigint', (e) => e.commentId)}, ${column('bigint', (e) => e.amount)},
          ${column('text', (e) => e.item)}, ${column('text', (e) => e.message)})`,
  );
}

/**
 * No event whose actor the user blocked (docs/product.md#blocks): the blocker's counts and lists leave them out, by
 * user_blocks' key, in the same query.
 */
const unblocked = (userId: number, actor: SQL = sql`actor_id`) =>
  sql`AND NOT EXISTS (SELECT 1 FROM user_blocks b WHERE b.blocker_id = ${userId} AND b.blocked_id = ${actor})`;

const idList = (ids: readonly number[]) =>
  sql.join(
    ids.map((id) => sql`${id}::bigint`),
    sql`, `,
  );

/** Unseen folds: one per topic and target. An index-only walk of notification_events_unseen. */
export async function unreadCount(exec: Executor, userId: number): Promise<number> {
  const [row] = await sqlRows(
    exec,
    sql<{ n: number }>`SELECT count(*)::int AS n FROM (
          SELECT 1 FROM notification_events WHERE user_id = ${userId} AND NOT seen ${unblocked(userId)}
          GROUP BY topic, target) g`,
  );
  return row!.n;
}

/** One notification as the repository reads it: its fold's figures and its latest event. */
export type NotificationRow = Fold &
  Columns<
    typeof notificationEvents,
    'topic' | 'created_at' | 'actor_id' | 'picture_id' | 'comment_id' | 'amount' | 'item' | 'message'
  > & {
    username: SqlRow<typeof users>['username'];
    profile_key: SqlRow<typeof pictures>['image_key'] | null;
  };

/** One notification before its details: the id of its latest event and its fold's figures. */
interface Fold {
  id: number;
  multiplicity: number;
  unique_actors: number;
  seen: boolean;
}

/** How many of the newest unseen events the fast path reads per notification asked for. */
export const WINDOW_PER_ROW = 10;

/**
 * The newest `limit` unseen folds before the id `before`. Fast path: the newest unseen events, walked down
 * `notification_events_recent`, name the folds in order (a fold's first event met is its latest), and only those
 * folds are counted. It is exact when it found `limit` folds or read every unseen event; otherwise (a user with
 * many unseen events on few targets) every unseen fold is grouped.
 */
async function unreadFolds(
  exec: Executor,
  userId: number,
  q: { topic: SQL; before: number | null; limit: number; window: number },
): Promise<Fold[]> {
  const beforeId = q.before === null ? sql`` : sql`AND id < ${q.before}`;
  // A fold with an event at or after the cursor was on an earlier page.
  const notEarlier =
    q.before === null
      ? sql``
      : sql`AND NOT EXISTS (SELECT 1 FROM notification_events x WHERE x.user_id = ${userId} AND NOT x.seen
              AND x.topic = f.topic AND x.target = f.target AND x.id >= ${q.before} ${unblocked(userId, sql`x.actor_id`)})`;
  const fast = await sqlRows(
    exec,
    sql<Fold & { scanned: number; id: number | null }>`WITH recent AS (
          SELECT id, topic, target FROM notification_events
          WHERE user_id = ${userId} AND NOT seen ${q.topic} ${beforeId} ${unblocked(userId)}
          ORDER BY id DESC LIMIT ${q.window}),
        firsts AS (SELECT DISTINCT ON (topic, target) id, topic, target FROM recent ORDER BY topic, target, id DESC),
        top AS (SELECT f.* FROM firsts f WHERE true ${notEarlier} ORDER BY f.id DESC LIMIT ${q.limit})
        SELECT (SELECT count(*) FROM recent)::int AS scanned, t.id, c.multiplicity, c.unique_actors, false AS seen
        FROM (SELECT 1) one
        LEFT JOIN (top t CROSS JOIN LATERAL (
          SELECT count(*)::int AS multiplicity, count(DISTINCT actor_id)::int AS unique_actors
          FROM notification_events e
          WHERE e.user_id = ${userId} AND NOT e.seen AND e.topic = t.topic AND e.target = t.target
            ${unblocked(userId, sql`e.actor_id`)}) c) ON true
        ORDER BY t.id DESC`,
  );
  const found = fast.filter((f) => f.id !== null).map(({ scanned: _, ...fold }) => fold);
  if (found.length === q.limit || fast[0]!.scanned < q.window) return found;
  return sqlRows(
    exec,
    sql<Fold>`SELECT max(id) AS id, count(*)::int AS multiplicity, count(DISTINCT actor_id)::int AS unique_actors,
               false AS seen
        FROM notification_events WHERE user_id = ${userId} AND NOT seen ${q.topic} ${unblocked(userId)}
        GROUP BY topic, target
        ${q.before === null ? sql`` : sql`HAVING max(id) < ${q.before}`}
        ORDER BY 1 DESC LIMIT ${q.limit}`,
  );
}

/** The newest `limit` read folds before the id `before`: a walk of notification_events_read. */
function readFolds(
  exec: Executor,
  userId: number,
  q: { topic: SQL; before: number | null; limit: number },
): Promise<Fold[]> {
  return sqlRows(
    exec,
    sql<Fold>`SELECT fold AS id, count(*)::int AS multiplicity, count(DISTINCT actor_id)::int AS unique_actors, true AS seen
        FROM notification_events WHERE user_id = ${userId} AND seen ${q.topic} ${unblocked(userId)}
          ${q.before === null ? sql`` : sql`AND fold < ${q.before}`}
        GROUP BY fold ORDER BY fold DESC LIMIT ${q.limit}`,
  );
}

/**
 * A page of the user's notifications, newest first, before the id `before`: unseen folds (grouped now) and read
 * ones (grouped by the `fold` they were read as), each with its latest event's fields and actor.
 */
export async function notificationsOf(
  exec: Executor,
  userId: number,
  q: { filter: NotificationFilter; topic: string | null; before: number | null; limit: number; window?: number },
): Promise<NotificationRow[]> {
  const page = {
    topic: q.topic === null ? sql`` : sql`AND topic = ${q.topic}`,
    before: q.before,
    limit: q.limit,
    window: q.window ?? q.limit * WINDOW_PER_ROW,
  };
  const [unread, read] = await Promise.all([
    q.filter === 'READ' ? [] : unreadFolds(exec, userId, page),
    q.filter === 'UNREAD' ? [] : readFolds(exec, userId, page),
  ]);
  const folds = [...unread, ...read]
    .map((f) => ({ ...f, id: Number(f.id) }))
    .sort((a, b) => b.id - a.id)
    .slice(0, q.limit);
  if (folds.length === 0) return [];
  const details = await sqlRows(
    exec,
    sql<
      Omit<NotificationRow, 'multiplicity' | 'unique_actors' | 'seen'>
    >`SELECT h.id, h.topic, h.created_at, h.actor_id, h.picture_id, h.comment_id, h.amount, h.item, h.message, u.username,
               pi.image_key AS profile_key
        FROM notification_events h
        LEFT JOIN users u ON u.id = h.actor_id
        LEFT JOIN pictures pi ON pi.id = u.profile_image_id AND pi.removed_at IS NULL
        WHERE h.id IN (${idList(folds.map((f) => f.id))})
          AND NOT EXISTS (SELECT 1 FROM pictures rp WHERE rp.id = h.picture_id AND rp.removed_at IS NOT NULL)
          AND NOT EXISTS (SELECT 1 FROM comments rc WHERE rc.id = h.comment_id AND (rc.removed_at IS NOT NULL
                OR EXISTS (SELECT 1 FROM comments rt WHERE rt.id = rc.response_to AND rt.removed_at IS NOT NULL)))`,
  );
  const byId = new Map(details.map((d) => [Number(d.id), d]));
  // A notification about content a moderator removed is left out (docs/product.md#moderation).
  return folds.filter((f) => byId.has(f.id)).map((f) => ({ ...byId.get(f.id)!, ...f }));
}

/** Who each of these event ids notifies (ids with no event are left out). */
export function ownersOf(exec: Executor, ids: readonly number[]): Promise<{ id: number; user_id: number }[]> {
  return sqlRows(
    exec,
    sql<
      Columns<typeof notificationEvents, 'id' | 'user_id'>
    >`SELECT id, user_id FROM notification_events WHERE id IN (${idList(ids)})`,
  );
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

/**
 * Reads every unseen event about content a moderator removed (a picture with its comments, or a comment with its
 * replies), each fold as it stands, so no unread count keeps counting what no list shows
 * (docs/product.md#moderation). Only the people such events notify are walked, on their unseen index: the
 * picture's author and whoever commented on the picture.
 */
export async function settleEventsAbout(
  exec: Executor,
  content: { pictureId: number } | { commentId: number },
): Promise<void> {
  const [picture, about] =
    'pictureId' in content
      ? [sql`${content.pictureId}::bigint`, sql`e.picture_id = ${content.pictureId}`]
      : [
          sql`(SELECT picture_id FROM comments WHERE id = ${content.commentId})`,
          sql`e.comment_id IN (SELECT id FROM comments WHERE id = ${content.commentId} OR response_to = ${content.commentId})`,
        ];
  await exec.execute(
    sql`WITH people AS (
          SELECT author_id AS id FROM pictures WHERE id = ${picture}
          UNION SELECT author_id FROM comments WHERE picture_id = ${picture}),
        hit AS (
          SELECT e.id, e.user_id, e.topic, e.target FROM notification_events e
          WHERE e.user_id IN (SELECT id FROM people) AND NOT e.seen AND ${about}),
        heads AS (SELECT user_id, topic, target, max(id) AS head FROM hit GROUP BY user_id, topic, target)
        UPDATE notification_events e SET seen = true, fold = h.head
          FROM hit JOIN heads h ON h.user_id = hit.user_id AND h.topic = hit.topic AND h.target = hit.target
        WHERE e.id = hit.id`,
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
