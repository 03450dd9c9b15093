import { sql, type SQL } from 'drizzle-orm';
import { sqlRows, type Columns, type Executor, type SqlRow } from '../../db/connection';
import type { users } from '../../db/core.tables';
import type { pictures } from '../pictures/pictures.tables';
import type { commentReactions, comments } from './comments.tables';

/** All of the comments' SQL, taking the db or the transaction of a command. */

/** A comment as the repository reads it, its reactions as JSON (pglite hands it back parsed, pg as text). */
export type CommentRow = Columns<
  typeof comments,
  'id' | 'picture_id' | 'response_to' | 'body' | 'author_id' | 'created_at' | 'pinned_at'
> & {
  author_name: SqlRow<typeof users>['username'] | null;
  author_profile_key: SqlRow<typeof pictures>['image_key'] | null;
  reactions: { reactionType: string; price: number | string; reactedOn: string; username: string }[] | string;
};

export type ReactionRow = Columns<typeof commentReactions, 'reaction_type' | 'price' | 'reacted_at'> & {
  /** coalesce(username, ''): never null. */
  username: NonNullable<SqlRow<typeof users>['username']>;
};

/**
 * A comment still shown (docs/product.md#moderation): not removed by a moderator, nor a reply to a removed one (a
 * removed top-level comment hides its replies).
 */
const SHOWN = sql`c.removed_at IS NULL
  AND (c.response_to IS NULL OR NOT EXISTS (SELECT 1 FROM comments rc WHERE rc.id = c.response_to AND rc.removed_at IS NOT NULL))`;

/** A comment with its author's name and face and its reactions (newest first), as the presenter reads it. */
const COMMENT_COLUMNS = sql`c.id, c.picture_id, c.response_to, c.body, c.author_id, u.username AS author_name,
  pi.image_key AS author_profile_key, c.created_at, c.pinned_at,
  (SELECT coalesce(json_agg(json_build_object('reactionType', r.reaction_type, 'price', r.price,
            'reactedOn', r.reacted_at, 'username', coalesce(ru.username, '')) ORDER BY r.id DESC), '[]')
     FROM comment_reactions r JOIN users ru ON ru.id = r.user_id WHERE r.comment_id = c.id) AS reactions`;

function commentsWhere(exec: Executor, where: SQL): Promise<CommentRow[]> {
  return sqlRows(
    exec,
    sql<CommentRow>`SELECT ${COMMENT_COLUMNS}
        FROM comments c
        JOIN users u ON u.id = c.author_id
        LEFT JOIN pictures pi ON pi.id = u.profile_image_id AND pi.removed_at IS NULL
        WHERE ${where} AND ${SHOWN}
        ORDER BY c.id`,
  );
}

/**
 * Every comment and reply of a picture; for a viewer, none whose author they blocked, nor the replies under a
 * comment of one (docs/product.md#blocks).
 */
export const commentsOfPicture = (exec: Executor, pictureId: number, viewerId: number | null = null) =>
  commentsWhere(
    exec,
    viewerId === null
      ? sql`c.picture_id = ${pictureId}`
      : sql`c.picture_id = ${pictureId} AND NOT EXISTS (
          SELECT 1 FROM user_blocks b WHERE b.blocker_id = ${viewerId}
            AND (b.blocked_id = c.author_id
              OR b.blocked_id = (SELECT p.author_id FROM comments p WHERE p.id = c.response_to)))`,
  );

/** A top-level comment and its replies. */
export const commentThread = (exec: Executor, rootId: number) =>
  commentsWhere(exec, sql`(c.id = ${rootId} OR c.response_to = ${rootId})`);

export interface CommentFacts {
  id: number;
  pictureId: number;
  responseTo: number | null;
  authorId: number;
  pinned: boolean;
}

/** What the commands check about a comment, or undefined when there is none. */
export async function commentFacts(exec: Executor, id: number): Promise<CommentFacts | undefined> {
  const [row] = await sqlRows(
    exec,
    sql<
      Columns<typeof comments, 'id' | 'picture_id' | 'response_to' | 'author_id'> & { pinned: boolean }
    >`SELECT id, picture_id, response_to, author_id, pinned_at IS NOT NULL AS pinned FROM comments c
        WHERE id = ${id} AND ${SHOWN}`,
  );
  return (
    row && {
      id: row.id,
      pictureId: row.picture_id,
      responseTo: row.response_to,
      authorId: row.author_id,
      pinned: row.pinned,
    }
  );
}

export async function insertComment(
  exec: Executor,
  c: { pictureId: number; authorId: number; responseTo: number | null; body: string; at: Date },
): Promise<number> {
  const [row] = await sqlRows(
    exec,
    sql<Columns<typeof comments, 'id'>>`INSERT INTO comments (picture_id, author_id, response_to, body, created_at)
        VALUES (${c.pictureId}, ${c.authorId}, ${c.responseTo}, ${c.body}, ${c.at.toISOString()}) RETURNING id`,
  );
  return row!.id;
}

export async function insertReaction(
  exec: Executor,
  r: { commentId: number; userId: number; reactionType: string; price: number; at: Date },
): Promise<number> {
  const [row] = await sqlRows(
    exec,
    sql<
      Columns<typeof commentReactions, 'id'>
    >`INSERT INTO comment_reactions (comment_id, user_id, reaction_type, price, reacted_at)
        VALUES (${r.commentId}, ${r.userId}, ${r.reactionType}, ${r.price}, ${r.at.toISOString()}) RETURNING id`,
  );
  return row!.id;
}

/**
 * Pins a top-level comment that is not pinned yet; false when it was a reply or already pinned. One guarded
 * statement, so of two pins at once only one changes the row (and only that one pays).
 */
export async function pinIfUnpinned(exec: Executor, id: number, at: Date): Promise<boolean> {
  const done = await sqlRows(
    exec,
    sql<Columns<typeof comments, 'id'>>`UPDATE comments SET pinned_at = ${at.toISOString()}
        WHERE id = ${id} AND pinned_at IS NULL AND response_to IS NULL RETURNING id`,
  );
  return done.length > 0;
}

/** A comment's reactions, newest first. */
export function reactionsOf(exec: Executor, commentId: number): Promise<ReactionRow[]> {
  return sqlRows(
    exec,
    sql<ReactionRow>`SELECT r.reaction_type, r.price, r.reacted_at, coalesce(u.username, '') AS username
        FROM comment_reactions r JOIN users u ON u.id = r.user_id
        WHERE r.comment_id = ${commentId} ORDER BY r.id DESC`,
  );
}

export async function commentExists(exec: Executor, id: number): Promise<boolean> {
  const found = await sqlRows(
    exec,
    sql<Columns<typeof comments, 'id'>>`SELECT id FROM comments c WHERE id = ${id} AND ${SHOWN}`,
  );
  return found.length > 0;
}

/** A comment for a moderator's decision, removed or not: its author, picture and parent. */
export async function commentForModeration(
  exec: Executor,
  id: number,
): Promise<{ authorId: number; pictureId: number; responseTo: number | null; removed: boolean } | undefined> {
  const [row] = await sqlRows(
    exec,
    sql<
      Columns<typeof comments, 'author_id' | 'picture_id' | 'response_to'> & { removed: boolean }
    >`SELECT author_id, picture_id, response_to, removed_at IS NOT NULL AS removed FROM comments WHERE id = ${id}`,
  );
  return (
    row && { authorId: row.author_id, pictureId: row.picture_id, responseTo: row.response_to, removed: row.removed }
  );
}

/** Removes (a time) or restores (null) a comment; answers whether it changed. */
export async function setRemoved(exec: Executor, id: number, at: Date | null): Promise<boolean> {
  const changed = await sqlRows(
    exec,
    sql<Columns<typeof comments, 'id'>>`UPDATE comments SET removed_at = ${at}
        WHERE id = ${id} AND (removed_at IS NULL) = ${at !== null} RETURNING id`,
  );
  return changed.length > 0;
}

/** How many comments and replies of a picture are shown (what its comment count counts). */
export async function shownCount(exec: Executor, pictureId: number): Promise<number> {
  const [row] = await sqlRows(
    exec,
    sql<{ n: number }>`SELECT count(*)::int AS n FROM comments c WHERE c.picture_id = ${pictureId} AND ${SHOWN}`,
  );
  return row!.n;
}
