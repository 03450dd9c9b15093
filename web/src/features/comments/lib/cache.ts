import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Comment } from '../../../../../common/api/comments';
import { compareReplies, sortComments } from '../../../../../common/comments';
import { useLiveChannel } from '../../../lib/live';
import { isBlocked, useBlocked } from '../../blocks/api/blocked-ids';

/*
 * A picture's comments live in one query (GET /api/picture/comment/{pictureId}); the answers of the paid calls and
 * the `comment` channel's messages are written into it (docs/ARCHITECTURE.md#live-events).
 */

export const commentsKey = (pictureId: number) => ['comments', 'picture', pictureId] as const;

/**
 * The list with this comment in it: a top-level comment replaces its old self (or joins the list), a reply replaces
 * or joins its parent's replies. The list is then put in order again (common/comments.ts), as the server orders it.
 */
export function withComment(list: readonly Comment[], c: Comment, now = Date.now()): Comment[] {
  if (c.responseTo === null) {
    const found = list.some((x) => x.id === c.id);
    return sortComments(found ? list.map((x) => (x.id === c.id ? c : x)) : [...list, c], now);
  }
  const parentIndex = list.findIndex((x) => x.id === c.responseTo);
  if (parentIndex < 0) return [...list];
  const parent = list[parentIndex]!;
  const others = parent.commentResponses.filter((r) => r.id !== c.id);
  const next = { ...parent, commentResponses: [...others, c].sort(compareReplies) };
  return sortComments(
    list.map((x, i) => (i === parentIndex ? next : x)),
    now,
  );
}

export function applyComment(client: QueryClient, c: Comment): void {
  client.setQueryData<Comment[]>(commentsKey(c.pictureId), (list) => list && withComment(list, c));
}

/** Comments created and updated by anyone, applied only to the picture shown (docs/product.md#comments). */
export function useCommentsLive(pictureId: number): void {
  const client = useQueryClient();
  // The blocked users, known before a live comment from one arrives (docs/product.md#blocks).
  useBlocked();
  useLiveChannel('comment', (message) => {
    if (message.m.pictureId !== pictureId) return;
    // A blocked author's comment or reply is never shown (docs/product.md#blocks).
    const c = message.m;
    if (isBlocked(client, c.authorId)) return;
    const replies = c.commentResponses.filter((r) => !isBlocked(client, r.authorId));
    applyComment(client, replies.length === c.commentResponses.length ? c : { ...c, commentResponses: replies });
  });
}

/** How many comments and replies a list holds (the picture's `commentCount`). */
export const countComments = (list: readonly Comment[]): number =>
  list.reduce((n, c) => n + 1 + c.commentResponses.length, 0);
