import type { FastifyRequest } from 'fastify';
import type { RateLimitOptions } from '@fastify/rate-limit';
import { ReportAnswer, ReportBody } from '../../../../common/api/reports';
import { FieldErrors, Message } from '../../../../common/api/shared';
import type { App, AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { tooManyRequests } from '../../http/errors';
import { reportMessage } from './reports.service';

/**
 * Reports per signed-in user per minute (REPORT_RATE_LIMIT, 0: no limit; docs/product.md#reports), counted in the
 * shared counters across instances, every attempt alike. Visitors are not counted; they are refused with 401.
 */
function reportLimit(perMinute: number): { rateLimit?: RateLimitOptions } {
  if (perMinute === 0) return {};
  return {
    rateLimit: {
      max: perMinute,
      timeWindow: 60_000,
      keyGenerator: (req: FastifyRequest) => `report:${req.user?.id ?? 0}`,
      allowList: (req: FastifyRequest) => !req.user,
      errorResponseBuilder: (_req: FastifyRequest, limit: { ttl: number }) => tooManyRequests(limit.ttl),
    },
  };
}

/** Reporting a comment, a chat message or a picture (docs/product.md#reports). */
export async function reportRoutes(app: App, ctx: AppContext): Promise<void> {
  app.post(
    '/api/user/report-message',
    {
      config: { ...reportLimit(ctx.config.reportRateLimit), auth: 'member' },
      schema: {
        summary: 'Report a comment, a chat message or a picture',
        operationId: 'reportMessage',
        tags: ['reports'],
        body: ReportBody,
        response: { 200: ReportAnswer, 400: FieldErrors, 401: Message, 404: Message, 409: Message, 429: Message },
      },
    },
    async (req) => reportMessage(ctx, requireUser(req).id, req.body),
  );
}
