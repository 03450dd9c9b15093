import { COMMENT_PRICE, PIN_PRICE } from '../../../../common/comments';
import { itemOf } from '../../../../common/items';
import { pinPush } from '../../../../common/push-messages';
import { checkText, writerOf } from '../../../../common/writing';
import { audience, type Work } from '../../db/unit-of-work';
import { fieldError, forbidden, notFound } from '../../http/errors';
import * as ledger from '../../ledger/commands';
import { blockersOf, hasBlocked, TEXT as BLOCKS } from '../blocks/blocks.service';
import { ownedItems } from '../items/items.service';
import { recordEvents, type NotificationEvent } from '../notifications/notifications.service';
import { pushNames, queuePush } from '../push/push.service';
import { countComment, pictureAuthorIn } from '../pictures/pictures.service';
import { commentsPolicy } from './comments.policy';
import { presentComment } from './comments.presenter';
import * as comments from './comments.repository';

/*
 * The comments' paid actions (docs/product.md#comments), each one command taking the unit of work: the checks, the
 * domain rows, the payment through the ledger (half to the payer's cause), the notification events and the live
 * message commit together or not at all. Each answers the comment it acted on; the live message carries the
 * top-level comment (with its replies), so a client replaces one entry of its list.
 */

/** The comment acted on (`id`) among the rows of its thread, after the change; the route presents it. */
export interface Acted {
  thread: comments.CommentRow[];
  id: number;
}

export const TEXT = {
  pictureGone: 'Image not found',
  commentGone: 'Comment not found.',
  notEmoji: 'React with an emoji item.',
  notOwned: (name: string) => `You don't own ${name}`,
  pinReply: 'A reply cannot be pinned.',
  alreadyPinned: 'This comment is already pinned.',
  badParent: 'You can only reply to a top-level comment of this picture.',
} as const;

/** Never a reply, never twice: 400 on commentId (validation; who may pin is comments.policy.ts). */
function refuseUnpinnable(comment: comments.CommentFacts): void {
  if (comment.responseTo !== null) throw fieldError('commentId', TEXT.pinReply);
  if (comment.pinned) throw fieldError('commentId', TEXT.alreadyPinned);
}

/** A reply answers a top-level comment of the same picture: 400 on responseTo. */
function checkParent(parent: comments.CommentFacts | undefined, pictureId: number): comments.CommentFacts {
  if (!parent || parent.pictureId !== pictureId || parent.responseTo !== null) {
    throw fieldError('responseTo', TEXT.badParent);
  }
  return parent;
}

/** POST /api/picture/comment: a comment, or a reply when `responseTo` names a top-level comment of the picture. */
export async function postComment(
  work: Work,
  now: Date,
  input: { userId: number; pictureId: number; text: string; responseTo: number | null },
): Promise<Acted> {
  const pictureAuthorInId = await pictureAuthorIn(work.tx, input.pictureId);
  if (pictureAuthorInId === undefined) throw notFound(TEXT.pictureGone);
  const parent =
    input.responseTo === null
      ? undefined
      : checkParent(await comments.commentFacts(work.tx, input.responseTo), input.pictureId);
  // The blocked cannot reply to the blocker's comment (docs/product.md#blocks): 403, before anything is charged.
  if (parent && (await hasBlocked(work.tx, parent.authorId, input.userId))) throw forbidden(BLOCKS.blockedYou);

  // The picture's author writes on it as if owning every letter (docs/product.md#writing); emojis must still be owned.
  const owned = await ownedItems(work.tx, input.userId);
  const writer = writerOf(owned, { allLetters: input.userId === pictureAuthorInId });
  const check = checkText(input.text, writer);
  if (!check.ok) throw fieldError('comment', check.hint);

  const id = await comments.insertComment(work.tx, {
    pictureId: input.pictureId,
    authorId: input.userId,
    responseTo: parent?.id ?? null,
    body: input.text,
    at: now,
  });
  await ledger.postComment(work, { userId: input.userId, amount: COMMENT_PRICE, commentId: id });
  await countComment(work.tx, input.pictureId);

  const events: NotificationEvent[] = [];
  const about = { actorId: input.userId, pictureId: input.pictureId, commentId: id };
  if (parent && parent.authorId !== input.userId) {
    events.push({ userId: parent.authorId, topic: 'COMMENT_REPLY', ...about });
  }
  // The picture's author hears of every comment on it but their own, unless a reply already told them.
  if (pictureAuthorInId !== input.userId && pictureAuthorInId !== parent?.authorId) {
    events.push({ userId: pictureAuthorInId, topic: 'IMAGE_COMMENT', ...about });
  }
  await recordEvents(work, events, now);

  const rootId = parent?.id ?? id;
  const thread = await comments.commentThread(work.tx, rootId);
  // The live payload is presented where it is raised (docs/decisions.md, "Presenters at the edge").
  await emitThread(work, parent ? 'commentUpdated' : 'commentCreated', thread, rootId, now);
  return { thread, id };
}

/** POST /api/picture/comment/reaction: an emoji item the user owns, at the price they chose (at least 1¢). */
export async function reactToComment(
  work: Work,
  now: Date,
  input: { userId: number; commentId: number; reactionType: string; price: number },
): Promise<Acted> {
  // The schema bounds the price, but ajv turns a string like "1e400" into Infinity before checking.
  if (!Number.isSafeInteger(input.price) || input.price < 1) throw fieldError('price', 'Enter at least 1¢.');
  const comment = await comments.commentFacts(work.tx, input.commentId);
  if (!comment) throw notFound(TEXT.commentGone);
  // The blocked cannot react on the blocker's comment (docs/product.md#blocks): 403, before anything is charged.
  if (await hasBlocked(work.tx, comment.authorId, input.userId)) throw forbidden(BLOCKS.blockedYou);
  const item = itemOf(input.reactionType);
  if (!item || item.tier === 'LETTER') throw fieldError('reactionType', TEXT.notEmoji);
  if ((await ownedItems(work.tx, input.userId)).get(item.itemType) === undefined) {
    throw fieldError('reactionType', TEXT.notOwned(item.name));
  }

  const reactionId = await comments.insertReaction(work.tx, {
    commentId: comment.id,
    userId: input.userId,
    reactionType: item.itemType,
    price: input.price,
    at: now,
  });
  await ledger.reactToComment(work, {
    userId: input.userId,
    amount: input.price,
    reactionId,
    reactionType: item.itemType,
  });
  if (comment.authorId !== input.userId) {
    await recordEvents(
      work,
      [
        {
          userId: comment.authorId,
          topic: 'IMAGE_COMMENT_REACTED',
          actorId: input.userId,
          pictureId: comment.pictureId,
          commentId: comment.id,
          amount: input.price,
          item: item.itemType,
        },
      ],
      now,
    );
  }
  return emitUpdated(work, now, comment);
}

/** POST /api/picture/comment/pin: the picture's author pins a top-level comment, once, for 1¢. */
export async function pinComment(work: Work, now: Date, input: { userId: number; commentId: number }): Promise<Acted> {
  const comment = await comments.commentFacts(work.tx, input.commentId);
  if (!comment) throw notFound(TEXT.commentGone);
  const authorId = (await pictureAuthorIn(work.tx, comment.pictureId))!;
  commentsPolicy.authorize({ id: input.userId }, 'pin', { authorId });
  refuseUnpinnable(comment);
  // Guarded: a pin racing this one finds the row pinned and is refused like a second pin.
  if (!(await comments.pinIfUnpinned(work.tx, comment.id, now))) refuseUnpinnable({ ...comment, pinned: true });
  await ledger.pinComment(work, { userId: input.userId, amount: PIN_PRICE, commentId: comment.id });
  // The comment's author hears of it on their devices (docs/product.md#push), unless they pinned it themselves or
  // blocked the picture's author (docs/product.md#blocks).
  if (comment.authorId !== input.userId && !(await hasBlocked(work.tx, comment.authorId, input.userId))) {
    const names = await pushNames(work.tx, [input.userId]);
    const message = pinPush({
      actorName: names.get(input.userId) ?? null,
      pictureId: comment.pictureId,
      commentId: comment.id,
    });
    await queuePush(work, comment.authorId, message, now);
  }
  return emitUpdated(work, now, comment);
}

/** The comment acted on, after the change; its top-level comment goes out on the live channel. */
async function emitUpdated(work: Work, now: Date, comment: comments.CommentFacts): Promise<Acted> {
  const rootId = comment.responseTo ?? comment.id;
  const thread = await comments.commentThread(work.tx, rootId);
  await emitThread(work, 'commentUpdated', thread, rootId, now);
  return { thread, id: comment.id };
}

/**
 * The thread goes out on `comment` to everyone but those who blocked one of its authors (docs/product.md#blocks):
 * who blocked the top-level comment's author hears nothing of it; who blocked only a replier gets the thread
 * without that user's replies. One indexed query of the blocks of the thread's authors.
 */
async function emitThread(
  work: Work,
  topic: 'commentCreated' | 'commentUpdated',
  thread: comments.CommentRow[],
  rootId: number,
  now: Date,
): Promise<void> {
  const blockers = await blockersOf(
    work.tx,
    thread.map((r) => Number(r.author_id)),
  );
  const whole = presentComment(thread, rootId, now)!;
  if (blockers.size === 0) return work.emit('comment', topic, whole);
  const rootAuthor = Number(thread.find((r) => Number(r.id) === rootId)!.author_id);
  const apart = new Set([...blockers.values()].flatMap((ids) => [...ids]));
  work.emit('comment', topic, whole, audience.allExcept([...apart]));
  for (const viewer of apart) {
    if (blockers.get(rootAuthor)?.has(viewer)) continue;
    const seen = thread.filter((r) => !blockers.get(Number(r.author_id))?.has(viewer));
    work.emit('comment', topic, presentComment(seen, rootId, now)!, audience.user(viewer));
  }
}
