import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Comment,
  CommentAnswer,
  CommentBody,
  PinBody,
  Reaction,
  ReactionBody,
} from '../../../../../common/api/comments';
import { api } from '../../../lib/api';
import { usePaidAction } from '../../wallet/api/usePaidAction';
import { applyComment, commentsKey } from '../lib/cache';

/*
 * The comments' calls (docs/product.md#comments): per call a fetcher, its query options and a hook. The three paid calls are paid
 * actions (features/wallet/: one Idempotency-Key per attempt, the 402 top-up, the balance). Their answers go into
 * the same cache the list filled.
 */

export const fetchComments = (pictureId: number): Promise<Comment[]> =>
  api<Comment[]>(`/api/picture/comment/${pictureId}`);

export const commentsQuery = (pictureId: number) =>
  queryOptions({
    queryKey: commentsKey(pictureId),
    queryFn: () => fetchComments(pictureId),
    staleTime: 30_000,
  });

/** A picture's comments in their order (public). */
export const useComments = (pictureId: number) => useQuery(commentsQuery(pictureId));

export const fetchReactions = (commentId: number): Promise<Reaction[]> =>
  api<Reaction[]>(`/api/picture/comment-reactions/${commentId}`);

/** A comment's reactions, newest first: fetched when its list is opened. */
export const useReactions = (commentId: number) =>
  useQuery({ queryKey: ['comments', 'reactions', commentId] as const, queryFn: () => fetchReactions(commentId) });

export const postComment = (body: CommentBody, idempotencyKey: string) =>
  api<CommentAnswer>('/api/picture/comment', { body, idempotencyKey });
export const reactToComment = (body: ReactionBody, idempotencyKey: string) =>
  api<CommentAnswer>('/api/picture/comment/reaction', { body, idempotencyKey });
export const pinComment = (body: PinBody, idempotencyKey: string) =>
  api<CommentAnswer>('/api/picture/comment/pin', { body, idempotencyKey });

/** A paid comment action whose answer (the comment acted on) is written into the list. */
function useCommentAction<I>(fn: (input: I, idempotencyKey: string) => Promise<CommentAnswer>) {
  const client = useQueryClient();
  return usePaidAction(fn, { onPaid: ({ balance: _balance, ...comment }) => applyComment(client, comment) });
}

export const usePostComment = () => useCommentAction(postComment);
export const useReactToComment = () => useCommentAction(reactToComment);
export const usePinComment = () => useCommentAction(pinComment);
