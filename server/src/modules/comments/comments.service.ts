import type { AppContext } from '../../context';
import type { Executor } from '../../db/connection';
import { notFound } from '../../http/errors';
import { adjustCommentCount, pictureAuthorIn } from '../pictures/pictures.service';
import * as comments from './comments.repository';

/**
 * A picture's comments and replies (docs/product.md#comments; the presenter threads them); 404 when there is no
 * picture. A signed-in reader gets none by users they blocked, nor the replies under a comment of one
 * (docs/product.md#blocks).
 */
export async function commentsOfPicture(
  ctx: AppContext,
  pictureId: number,
  viewerId: number | null = null,
): Promise<comments.CommentRow[]> {
  if ((await pictureAuthorIn(ctx.reads.lagTolerant(), pictureId)) === undefined) throw notFound('Image not found');
  return comments.commentsOfPicture(ctx.reads.lagTolerant(), pictureId, viewerId);
}

/** A comment's reactions, newest first; 404 when there is no such comment. */
export async function reactionsOfComment(ctx: AppContext, commentId: number): Promise<comments.ReactionRow[]> {
  if (!Number.isSafeInteger(commentId) || !(await comments.commentExists(ctx.reads.lagTolerant(), commentId))) {
    throw notFound('Comment not found.');
  }
  return comments.reactionsOf(ctx.reads.lagTolerant(), commentId);
}

/** Whether a comment (or reply) exists: what a report of a comment needs. */
export function commentExists(exec: Executor, commentId: number): Promise<boolean> {
  return comments.commentExists(exec, commentId);
}

/** A comment for a moderator's decision (docs/product.md#moderation), removed or not. */
export function commentForModeration(exec: Executor, commentId: number) {
  return comments.commentForModeration(exec, commentId);
}

/**
 * A moderator removes (`at`) or restores (null) a comment (docs/product.md#moderation): a removed top-level comment
 * hides its replies too, and the picture's comment count follows what is shown. Answers whether it changed.
 */
export async function setCommentRemoved(exec: Executor, commentId: number, at: Date | null): Promise<boolean> {
  const found = await comments.commentForModeration(exec, commentId);
  if (!found) return false;
  const before = await comments.shownCount(exec, found.pictureId);
  if (!(await comments.setRemoved(exec, commentId, at))) return false;
  await adjustCommentCount(exec, found.pictureId, (await comments.shownCount(exec, found.pictureId)) - before);
  return true;
}
