import {
  CommentAnswer,
  CommentBody,
  CommentIdParams,
  CommentList,
  PictureIdParams,
  PinBody,
  ReactionBody,
  ReactionList,
} from '../../../../common/api/comments';
import { FieldErrors, Message, Missing } from '../../../../common/api/shared';
import type { App, AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { sendPaid } from '../../http/idempotency';
import { refuseBlockedWords } from '../moderation/blocked-words.service';
import { pinComment, postComment, reactToComment, type Acted } from './comments.commands';
import { presentComment, presentReaction, presentThreads } from './comments.presenter';
import { commentsOfPicture, reactionsOfComment } from './comments.service';
import { commentsPolicy } from './comments.policy';

/** Comments, replies, reactions and pins (docs/product.md#comments). */
export async function commentRoutes(app: App, ctx: AppContext): Promise<void> {
  const tags = ['comments'];
  const paid = { 400: FieldErrors, 401: Message, 402: Missing, 404: Message };
  /** A paid change's answer: the comment acted on, with its replies. */
  const changed = async (act: (now: Date) => Promise<Acted>) => {
    const now = ctx.now();
    const { thread, id } = await act(now);
    return presentComment(thread, id, now)!;
  };

  app.get(
    '/api/picture/comment/:pictureId',
    {
      config: { auth: 'public' },
      schema: {
        summary: "A picture's comments and replies",
        operationId: 'listComments',
        tags,
        params: PictureIdParams,
        response: { 200: CommentList, 404: Message },
      },
    },
    async (req) => {
      // A signed-in reader gets none of the comments and replies of users they blocked (docs/product.md#blocks).
      const found = await commentsOfPicture(ctx, Number(req.params.pictureId), req.user?.id ?? null);
      return presentThreads(found, ctx.now());
    },
  );

  app.get(
    '/api/picture/comment-reactions/:commentId',
    {
      config: { auth: 'public' },
      schema: {
        summary: "A comment's paid reactions",
        operationId: 'listCommentReactions',
        tags,
        params: CommentIdParams,
        response: { 200: ReactionList, 404: Message },
      },
    },
    async (req) => (await reactionsOfComment(ctx, Number(req.params.commentId))).map(presentReaction),
  );

  app.post(
    '/api/picture/comment',
    {
      config: { auth: 'member' },
      schema: {
        summary: 'Comment on a picture, or reply to a comment (15 cents)',
        operationId: 'postComment',
        tags,
        body: CommentBody,
        response: { 200: CommentAnswer, ...paid },
      },
    },
    async (req, reply) => {
      const userId = requireUser(req).id;
      const { pictureId, comment, responseTo } = req.body;
      // Before anything is charged (docs/product.md#blocks).
      await refuseBlockedWords(ctx, 'comment', comment);
      return sendPaid(ctx, req, reply, userId, (work) =>
        changed((now) => postComment(work, now, { userId, pictureId, text: comment, responseTo: responseTo ?? null })),
      );
    },
  );

  app.post(
    '/api/picture/comment/reaction',
    {
      config: { auth: 'member' },
      schema: {
        summary: 'Pay a reaction onto a comment',
        operationId: 'reactToComment',
        tags,
        body: ReactionBody,
        response: { 200: CommentAnswer, ...paid },
      },
    },
    async (req, reply) => {
      const userId = requireUser(req).id;
      const { commentId, reactionType, price } = req.body;
      return sendPaid(ctx, req, reply, userId, (work) =>
        changed((now) => reactToComment(work, now, { userId, commentId, reactionType, price })),
      );
    },
  );

  app.post(
    '/api/picture/comment/pin',
    {
      config: { auth: commentsPolicy.rule('pin') },
      schema: {
        summary: "Pin a comment on one's own picture (1 cent)",
        operationId: 'pinComment',
        tags,
        body: PinBody,
        response: { 200: CommentAnswer, ...paid, 403: Message },
      },
    },
    async (req, reply) => {
      const userId = requireUser(req).id;
      const { commentId } = req.body;
      return sendPaid(ctx, req, reply, userId, (work) =>
        changed((now) => pinComment(work, now, { userId, commentId })),
      );
    },
  );
}
