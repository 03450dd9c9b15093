import { sql } from 'drizzle-orm';
import { sqlRows, type Columns, type Executor, type SqlRow } from '../../db/connection';
import type { users } from '../../db/core.tables';
import type { pictures } from '../pictures/pictures.tables';
import type { chatLastSeen, chatMessages, chatRooms } from './chat.tables';

/** All of the chat's SQL. The room is one row (ROOM); sends take it FOR UPDATE and so run one at a time. */

const ROOM = 1;

export type MessageRow = Columns<typeof chatMessages, 'id' | 'sender_id' | 'body' | 'created_at'> &
  Columns<typeof users, 'username'> & { profile_image_key: SqlRow<typeof pictures>['image_key'] | null };

/** The room's row; safe on every start. */
export async function ensureRoom(exec: Executor): Promise<void> {
  await exec.execute(sql`INSERT INTO chat_rooms (id) VALUES (${ROOM}) ON CONFLICT (id) DO NOTHING`);
}

export type RoomRow = Columns<typeof chatRooms, 'message_count' | 'unit_price' | 'online_count'>;

/** Takes the room for the rest of the transaction: the count of recent messages stays exact while a send prices. */
export async function lockRoom(exec: Executor): Promise<RoomRow> {
  const [room] = await sqlRows(
    exec,
    sql<RoomRow>`SELECT message_count, unit_price, online_count FROM chat_rooms WHERE id = ${ROOM} FOR UPDATE`,
  );
  return room!;
}

export async function room(exec: Executor): Promise<RoomRow> {
  const [r] = await sqlRows(
    exec,
    sql<RoomRow>`SELECT message_count, unit_price, online_count FROM chat_rooms WHERE id = ${ROOM}`,
  );
  return r!;
}

/** Messages sent after `since`. */
export async function countSince(exec: Executor, since: Date): Promise<number> {
  const [r] = await sqlRows(
    exec,
    sql<{ n: number }>`SELECT count(*)::int AS n FROM chat_messages WHERE created_at > ${since}`,
  );
  return r!.n;
}

/** Writes a message and answers it as it will be presented (with its sender's name and face). */
export async function insertMessage(
  exec: Executor,
  m: { senderId: number; body: string; cost: number; unitPrice: number; at: Date },
): Promise<MessageRow> {
  const [row] = await sqlRows(
    exec,
    sql<MessageRow>`WITH m AS (INSERT INTO chat_messages (sender_id, body, cost, unit_price, created_at)
          VALUES (${m.senderId}, ${m.body}, ${m.cost}, ${m.unitPrice}, ${m.at}) RETURNING id, sender_id, body, created_at)
        SELECT m.id, m.sender_id, u.username, pi.image_key AS profile_image_key, m.body, m.created_at
        FROM m JOIN users u ON u.id = m.sender_id LEFT JOIN pictures pi ON pi.id = u.profile_image_id AND pi.removed_at IS NULL`,
  );
  return row!;
}

/** Counts a sent message in the room and keeps the unit price it now has. */
export async function countMessage(exec: Executor, unitPrice: number): Promise<void> {
  await exec.execute(
    sql`UPDATE chat_rooms SET message_count = message_count + 1, unit_price = ${unitPrice} WHERE id = ${ROOM}`,
  );
}

/** The newest `limit` messages, oldest first; none of the senders the viewer blocked (docs/product.md#blocks). */
export async function lastMessages(
  exec: Executor,
  limit: number,
  viewerId: number | null = null,
): Promise<MessageRow[]> {
  const unblocked =
    viewerId === null
      ? sql``
      : sql`AND NOT EXISTS (SELECT 1 FROM user_blocks b WHERE b.blocker_id = ${viewerId} AND b.blocked_id = m.sender_id)`;
  return sqlRows(
    exec,
    sql<MessageRow>`SELECT * FROM (
          SELECT m.id, m.sender_id, u.username, pi.image_key AS profile_image_key, m.body, m.created_at
          FROM chat_messages m JOIN users u ON u.id = m.sender_id LEFT JOIN pictures pi ON pi.id = u.profile_image_id AND pi.removed_at IS NULL
          WHERE m.removed_at IS NULL ${unblocked}
          ORDER BY m.id DESC LIMIT ${limit}) last
        ORDER BY id`,
  );
}

/** Stores a value broadcast with the room if it differs from the last one; answers whether it did. */
export async function replaceIfChanged(
  exec: Executor,
  field: 'unit_price' | 'online_count',
  value: number,
): Promise<boolean> {
  const column = sql.raw(field);
  const changed = await sqlRows(
    exec,
    sql<
      Columns<typeof chatRooms, 'id'>
    >`UPDATE chat_rooms SET ${column} = ${value} WHERE id = ${ROOM} AND ${column} <> ${value} RETURNING id`,
  );
  return changed.length > 0;
}

/** A user's last chat socket closed: the room's count now is where they left it. */
export async function recordSeen(exec: Executor, userId: number, at: Date): Promise<void> {
  await exec.execute(
    sql`INSERT INTO chat_last_seen (user_id, seen_count, seen_at)
        SELECT ${userId}, message_count, ${at} FROM chat_rooms WHERE id = ${ROOM}
        ON CONFLICT (user_id) DO UPDATE SET seen_count = excluded.seen_count, seen_at = excluded.seen_at`,
  );
}

/**
 * Messages each user missed since they last left the room (all of them for one who never had it open), less those of
 * users they blocked, which they never see (docs/product.md#blocks): only a user who blocked someone pays for that
 * count.
 */
export async function missedCounts(exec: Executor, userIds: number[]): Promise<Map<number, number>> {
  if (userIds.length === 0) return new Map();
  const ids = sql.join(
    userIds.map((id) => sql`(${id}::bigint)`),
    sql`, `,
  );
  const found = await sqlRows(
    exec,
    sql<
      Columns<typeof chatLastSeen, 'user_id'> & { missed: number }
    >`SELECT v.id AS user_id, (r.message_count - coalesce(s.seen_count, 0)
          - (SELECT count(*) FROM user_blocks b JOIN chat_messages m ON m.sender_id = b.blocked_id
              WHERE b.blocker_id = v.id AND m.created_at > coalesce(s.seen_at, '-infinity'::timestamptz)))::int AS missed
        FROM (VALUES ${ids}) AS v(id) CROSS JOIN chat_rooms r
        LEFT JOIN chat_last_seen s ON s.user_id = v.id WHERE r.id = ${ROOM}`,
  );
  return new Map(found.map((r) => [Number(r.user_id), r.missed]));
}

/** A chat message for a moderator's decision, removed or not: its sender and text. */
export async function messageForModeration(
  exec: Executor,
  id: number,
): Promise<{ senderId: number; body: string; removed: boolean } | undefined> {
  const [row] = await sqlRows(
    exec,
    sql<
      Columns<typeof chatMessages, 'sender_id' | 'body'> & { removed: boolean }
    >`SELECT sender_id, body, removed_at IS NOT NULL AS removed FROM chat_messages WHERE id = ${id}`,
  );
  return row && { senderId: row.sender_id, body: row.body, removed: row.removed };
}

/** Removes (a time) or restores (null) a chat message; answers whether it changed. */
export async function setRemoved(exec: Executor, id: number, at: Date | null): Promise<boolean> {
  const changed = await sqlRows(
    exec,
    sql<Columns<typeof chatMessages, 'id'>>`UPDATE chat_messages SET removed_at = ${at}
        WHERE id = ${id} AND (removed_at IS NULL) = ${at !== null} RETURNING id`,
  );
  return changed.length > 0;
}
