import type { FastifyRequest } from 'fastify';
import { brandOf } from '../../../../common/brand';
import {
  AdminAppeals,
  AppealAnswer,
  AppealBody,
  DecideAppealAnswer,
  DecideAppealBody,
  DecideReportAnswer,
  DecideReportBody,
  ModerationLog,
  ModerationLogQuery,
  UserDecisions,
} from '../../../../common/api/moderation';
import { FieldErrors, Message } from '../../../../common/api/shared';
import type { App, AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import type { Work } from '../../db/unit-of-work';
import { idempotent } from '../../http/idempotency';
import { publicOrigin, tenantOf } from '../../http/tenant';
import { deliver, type QueuedMail } from '../../mail/outbox';
import { decideAppeal, decideReport, type MailFrom } from './moderation.commands';
import { moderationPolicy } from './moderation.policy';
import { presentAdminAppeal, presentAppeal, presentLog, presentUserDecision } from './moderation.presenter';
import { appeal, moderationLog, pendingAppeals, userDecisions } from './moderation.service';

const tags = ['moderation'];

/**
 * Moderation (docs/product.md#moderation): the admins' decisions on reports and appeals, the author's decisions and
 * their one appeal, the public log.
 */
export async function moderationRoutes(app: App, ctx: AppContext): Promise<void> {
  const from = (req: FastifyRequest): MailFrom => ({
    brand: brandOf(tenantOf(req, ctx)).title,
    origin: publicOrigin(req, ctx),
  });
  /** The first try of the mails a committed call queued; the outbox retries any that fail. */
  const send = async (mails: readonly QueuedMail[]) => {
    for (const mail of mails) await deliver(ctx, mail);
  };
  /**
   * An admin's decision under the request's Idempotency-Key: the answer as first given (a decision, or the refusal a
   * replay repeats), once the mails it queued had their first try.
   */
  const decided = async <A extends object>(
    req: FastifyRequest,
    command: (work: Work, adminId: number) => Promise<A & { mails: QueuedMail[] }>,
  ) => {
    const admin = requireUser(req);
    let mails: QueuedMail[] = [];
    const answer = await idempotent(ctx, req, admin.id, async (work) => {
      const { mails: queued, ...decision } = await command(work, admin.id);
      mails = queued;
      return { statusCode: 200, body: decision };
    });
    await send(mails);
    return answer;
  };

  // A refund moves money, so the decision goes through the Idempotency-Key like every such call: a replay answers
  // the first answer, and decides nothing twice.
  app.post(
    '/api/admin/reports/decide',
    {
      config: { auth: 'admin' },
      schema: {
        summary: 'Decide every report of the reported content: dismiss, or remove (with a suspension, a refund)',
        operationId: 'decideReport',
        tags,
        body: DecideReportBody,
        response: { 200: DecideReportAnswer, 400: FieldErrors, 401: Message, 403: Message, 404: Message, 409: Message },
      },
    },
    async (req, reply) => {
      const answer = await decided(req, (work, adminId) =>
        decideReport(work, {
          ...req.body,
          adminId,
          now: ctx.now(),
          feeBps: ctx.config.marketFeeBps,
          from: from(req),
        }),
      );
      return reply.code(answer.statusCode as 200).send(answer.body);
    },
  );

  app.get(
    '/api/admin/appeals',
    {
      config: { auth: 'admin' },
      schema: {
        summary: 'Appeals waiting for a decision, oldest first',
        operationId: 'listAppeals',
        tags,
        response: { 200: AdminAppeals, 401: Message, 403: Message },
      },
    },
    async () => (await pendingAppeals(ctx)).map(presentAdminAppeal),
  );

  app.post(
    '/api/admin/appeals/decide',
    {
      config: { auth: 'admin' },
      schema: {
        summary: 'Uphold or reverse an appealed decision (an admin other than the one who decided, when there is one)',
        operationId: 'decideAppeal',
        tags,
        body: DecideAppealBody,
        response: {
          200: DecideAppealAnswer,
          400: FieldErrors,
          401: Message,
          403: Message,
          404: Message,
          409: Message,
        },
      },
    },
    async (req, reply) => {
      const answer = await decided(req, (work, adminId) =>
        decideAppeal(work, { ...req.body, adminId, now: ctx.now(), from: from(req) }),
      );
      return reply.code(answer.statusCode as 200).send(answer.body);
    },
  );

  app.get(
    '/api/user/moderation',
    {
      config: { auth: 'user' },
      schema: {
        summary: "Moderators' decisions on the signed-in user's content, newest first",
        operationId: 'myModerationDecisions',
        tags,
        response: { 200: UserDecisions, 401: Message },
      },
    },
    async (req) => (await userDecisions(ctx, requireUser(req).id)).map(presentUserDecision),
  );

  app.post(
    '/api/user/moderation/appeal',
    {
      config: { auth: moderationPolicy.rule('appeal') },
      schema: {
        summary: 'Appeal a decision on your content: once, within 14 days',
        operationId: 'appealDecision',
        tags,
        body: AppealBody,
        response: { 200: AppealAnswer, 400: FieldErrors, 401: Message, 404: Message, 409: Message },
      },
    },
    async (req) => presentAppeal(await appeal(ctx, requireUser(req).id, req.body))!,
  );

  app.get(
    '/api/moderation-log',
    {
      config: { auth: 'public' },
      schema: {
        summary: "The public log of moderators' decisions, newest first: no names, no content",
        operationId: 'moderationLog',
        tags,
        querystring: ModerationLogQuery,
        response: { 200: ModerationLog, 400: FieldErrors },
      },
    },
    async (req) => {
      const { rows, next } = await moderationLog(ctx, req.query.cursor);
      return presentLog(rows, next);
    },
  );
}
