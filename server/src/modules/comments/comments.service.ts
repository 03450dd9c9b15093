import type { Comment, Reaction } from '../../../../common/api/comments';
import type { AppContext } from '../../context';
import type { Executor } from '../../db/connection';
import { notFound } from '../../http/errors';
import { pictureAuthorIn } from '../pictures/pictures.service';
import { presentReaction, presentThreads } from './comments.presenter';
import * as comments from './comments.repository';

/** A picture's top-level comments with their replies, in their order (docs/product.md#comments); 404 when there is no picture. */
export async function commentsOfPicture(ctx: AppContext, pictureId: number): Promise<Comment[]> {
  if ((await pictureAuthorIn(ctx.db, pictureId)) === undefined) throw notFound('Image not found');
  return presentThreads(await comments.commentsOfPicture(ctx.db, pictureId), ctx.now());
}

/** A comment's reactions, newest first; 404 when there is no such comment. */
export async function reactionsOfComment(ctx: AppContext, commentId: number): Promise<Reaction[]> {
  if (!Number.isSafeInteger(commentId) || !(await comments.commentExists(ctx.db, commentId))) {
    throw notFound('Comment not found.');
  }
  return (await comments.reactionsOf(ctx.db, commentId)).map(presentReaction);
}

/** Whether a comment (or reply) exists: what a report of a comment needs. */
export function commentExists(exec: Executor, commentId: number): Promise<boolean> {
  return comments.commentExists(exec, commentId);
}
