import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Comment, CommentBody, PinBody, Reaction, ReactionBody } from '../../../../../common/api/comments';
import { api } from '../../../lib/api';
import { useAction } from '../../../hooks/useAction';
import { profileQuery } from '../../users/api/profile';
import { applyComment, commentsKey } from '../lib/cache';

/*
 * The comments' calls (docs/product.md#comments): per call a fetcher, its query options and a hook. The three paid calls send one
 * Idempotency-Key per user action (a retried click is never charged twice); a 402 opens the top-up popup in
 * lib/api.ts. Their answers go into the same cache the list filled.
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

type Keyed<T> = T & { actionKey: string };

export const postComment = ({ actionKey, ...body }: Keyed<CommentBody>) =>
  api<Comment>('/api/picture/comment', { body, idempotencyKey: actionKey });
export const reactToComment = ({ actionKey, ...body }: Keyed<ReactionBody>) =>
  api<Comment>('/api/picture/comment/reaction', { body, idempotencyKey: actionKey });
export const pinComment = ({ actionKey, ...body }: Keyed<PinBody>) =>
  api<Comment>('/api/picture/comment/pin', { body, idempotencyKey: actionKey });

/** A paid comment action whose answer (the comment acted on) is written into the list; the balance is refetched. */
function useCommentAction<I>(fn: (input: I) => Promise<Comment>) {
  const client = useQueryClient();
  return useAction(async (input: I) => {
    const comment = await fn(input);
    applyComment(client, comment);
    // The live balance channel moves it too; this keeps it right while the socket is down.
    void client.invalidateQueries({ queryKey: profileQuery.queryKey });
    return comment;
  });
}

export const usePostComment = () => useCommentAction(postComment);
export const useReactToComment = () => useCommentAction(reactToComment);
export const usePinComment = () => useCommentAction(pinComment);
