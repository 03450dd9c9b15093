import type { Comment, Reaction } from '../../../../common/api/comments';
import { compareReplies, sortComments, topReactions } from '../../../../common/comments';
import { isoTime } from '../../../../common/time';
import { imageUrl } from '../../storage/storage';
import type { CommentRow, ReactionRow } from './comments.repository';

export const presentReaction = (r: ReactionRow): Reaction => ({
  reactionType: r.reaction_type,
  price: Number(r.price),
  reactedOn: isoTime(r.reacted_at),
  username: r.username,
});

/** The fields of one comment that leave the server (docs/product.md#comments), with no replies yet. */
function presentOne(r: CommentRow): Comment {
  const raw = typeof r.reactions === 'string' ? JSON.parse(r.reactions) : r.reactions;
  const reactions = (
    raw as { reactionType: string; price: number | string; reactedOn: string; username: string }[]
  ).map((x) => ({
    reactionType: String(x.reactionType),
    price: Number(x.price),
    reactedOn: isoTime(x.reactedOn),
    username: String(x.username),
  }));
  const [firstReaction, secondReaction] = topReactions(reactions);
  return {
    id: r.id,
    pictureId: r.picture_id,
    responseTo: r.response_to,
    comment: r.body,
    authorId: r.author_id,
    authorName: r.author_name ?? '',
    authorProfileUrl: r.author_profile_key ? imageUrl(r.author_profile_key) : null,
    commentedOn: isoTime(r.created_at),
    isPinned: r.pinned_at !== null,
    pinnedOn: r.pinned_at === null ? null : isoTime(r.pinned_at),
    reactions,
    firstReaction,
    secondReaction,
    commentResponses: [],
  };
}

/** Rows of comments and replies as top-level comments in their order (common/comments.ts), each with its replies. */
export function presentThreads(sqlRows: readonly CommentRow[], now: Date): Comment[] {
  const all = sqlRows.map(presentOne);
  const tops = all.filter((c) => c.responseTo === null);
  const byId = new Map(tops.map((c) => [c.id, c]));
  for (const reply of all) {
    if (reply.responseTo !== null) byId.get(reply.responseTo)?.commentResponses.push(reply);
  }
  for (const top of tops) top.commentResponses.sort(compareReplies);
  return sortComments(tops, now.getTime());
}

/** One comment out of rows holding it (a reply is found among its thread's rows). */
export function presentComment(sqlRows: readonly CommentRow[], id: number, now: Date): Comment | undefined {
  const threads = presentThreads(sqlRows, now);
  // A reply is a comment whose own replies are always empty.
  const replies = threads.flatMap((c) => c.commentResponses) as Comment[];
  return threads.find((c) => c.id === id) ?? replies.find((c) => c.id === id);
}
