import { Type, type Static, type TSchema } from 'typebox';
import { MAX_REACTION_PRICE } from '../comments';
import { Digits, Nullable, paidAnswer } from './shared';

/*
 * The comments' calls (docs/product.md#comments). Prices
 * are integer cents. The text limits are checked by common/writing.ts (in graphemes), not by the schema: an emoji of
 * several code points is one character there.
 */

const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
/** The client's view of its balance: carried by the API's payloads, never trusted (docs/product.md#money). */
const Balance = Type.Optional(Type.Unknown());

/** docs/product.md#comments: an emoji item code, its price in cents, when and by whom. */
export const Reaction = Type.Object({
  reactionType: Type.String(),
  price: Type.Integer(),
  reactedOn: Type.String(),
  username: Type.String(),
});
export type Reaction = Static<typeof Reaction>;

const commentFields = <T extends TSchema>(responses: T) =>
  Type.Object({
    id: Type.Integer(),
    pictureId: Type.Integer(),
    /** The top-level comment this one answers; null for a top-level comment. */
    responseTo: Nullable(Type.Integer()),
    comment: Type.String(),
    authorId: Type.Integer(),
    authorName: Type.String(),
    authorProfileUrl: Nullable(Type.String()),
    commentedOn: Type.String(),
    isPinned: Type.Boolean(),
    /** When the picture's author pinned it (the latest pin comes first); null when not pinned. */
    pinnedOn: Nullable(Type.String()),
    /** Every reaction, newest first; the comment's trending sum is computed from them (common/comments.ts). */
    reactions: Type.Array(Reaction),
    /** The reaction types with the most money behind them (common/comments.ts `topReactions`). */
    firstReaction: Nullable(Type.String()),
    secondReaction: Nullable(Type.String()),
    /** Replies, oldest first; always empty on a reply (replies have no replies). */
    commentResponses: responses,
  });

export const Reply = commentFields(Type.Array(Type.Object({}), { maxItems: 0 }));
/** docs/product.md#comments: a top-level comment with its replies, or a reply (with no replies of its own). */
export const Comment = commentFields(Type.Array(Reply));
export type Comment = Static<typeof Comment>;
/** 200 of a paid comment call (a comment, a reaction, a pin): the comment acted on, and the payer's balance. */
export const CommentAnswer = paidAnswer(Comment);
export type CommentAnswer = Static<typeof CommentAnswer>;

export const CommentList = Type.Array(Comment);

export const PictureIdParams = Type.Object({ pictureId: Digits(15, 'picture id') });
export const CommentIdParams = Type.Object({ commentId: Digits(15, 'comment id') });

/** POST /api/picture/comment: 15¢; `responseTo` makes it a reply to a top-level comment of the same picture. */
export const CommentBody = Type.Object({
  pictureId: Id,
  comment: Type.String({ maxLength: 5000, description: 'At most 500 characters (graphemes), written by the rules' }),
  balance: Balance,
  responseTo: Type.Optional(Nullable(Id)),
});
export type CommentBody = Static<typeof CommentBody>;

/** POST /api/picture/comment/reaction: an owned emoji item, at least 1¢. */
export const ReactionBody = Type.Object({
  commentId: Id,
  reactionType: Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'An emoji item code, e.g. UNCOMMON_EMOJI_FIRE',
  }),
  price: Type.Integer({ minimum: 1, maximum: MAX_REACTION_PRICE, description: 'Cents' }),
  balance: Balance,
});
export type ReactionBody = Static<typeof ReactionBody>;

/** POST /api/picture/comment/pin: 1¢, the picture's author only. */
export const PinBody = Type.Object({ commentId: Id, balance: Balance });
export type PinBody = Static<typeof PinBody>;

export const ReactionList = Type.Array(Reaction);
