import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
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

/** Every picture's cached comment list. */
export const commentListsRoot = ['comments', 'picture'] as const;

/**
 * Drops the comments and replies `keep` refuses from every cached list (a removed comment, a blocked author's:
 * docs/product.md#moderation); a top-level comment dropped takes its replies with it.
 */
export function filterComments(client: QueryClient, keep: (c: Comment) => boolean): void {
  for (const [key, list] of client.getQueriesData<Comment[]>({ queryKey: commentListsRoot })) {
    if (!list) continue;
    const next = withoutComments(list, keep);
    if (next !== list) client.setQueryData(key, next);
  }
}

/** The list without what `keep` refuses; the same list when nothing goes. */
export function withoutComments(list: Comment[], keep: (c: Comment) => boolean): Comment[] {
  let changed = false;
  const next: Comment[] = [];
  for (const c of list) {
    if (!keep(c)) {
      changed = true;
      continue;
    }
    const replies = c.commentResponses as Comment[];
    const kept = replies.filter(keep);
    if (kept.length === replies.length) next.push(c);
    else {
      changed = true;
      next.push({ ...c, commentResponses: kept as Comment['commentResponses'] });
    }
  }
  return changed ? next : list;
}

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
