import { fieldError, forbidden } from '../../http/errors';
import type { CommentFacts } from './comments.repository';

/*
 * Every access check of the comments (docs/product.md#comments). Anyone signed in may comment, reply,
 * react and report; pinning belongs to the picture's author. comments.policy.test.ts proves a stranger's pin is
 * refused and changes nothing.
 */

export const POLICY_TEXT = {
  notAuthor: "Only the picture's author can pin its comments.",
  pinReply: 'A reply cannot be pinned.',
  alreadyPinned: 'This comment is already pinned.',
  badParent: 'You can only reply to a top-level comment of this picture.',
} as const;

/** Pinning is the picture author's: 403 for anyone else. */
export function authorizePin(userId: number, pictureAuthorId: number): void {
  if (userId !== pictureAuthorId) throw forbidden(POLICY_TEXT.notAuthor);
}

/** Never a reply, never twice: 400 on commentId. */
export function refuseUnpinnable(comment: CommentFacts): void {
  if (comment.responseTo !== null) throw fieldError('commentId', POLICY_TEXT.pinReply);
  if (comment.pinned) throw fieldError('commentId', POLICY_TEXT.alreadyPinned);
}

/** A reply answers a top-level comment of the same picture (docs/product.md#comments): 400 on responseTo. */
export function checkParent(parent: CommentFacts | undefined, pictureId: number): CommentFacts {
  if (!parent || parent.pictureId !== pictureId || parent.responseTo !== null) {
    throw fieldError('responseTo', POLICY_TEXT.badParent);
  }
  return parent;
}
