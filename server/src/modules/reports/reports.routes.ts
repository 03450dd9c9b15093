import { ReportAnswer, ReportBody } from '../../../../common/api/reports';
import { FieldErrors, Message } from '../../../../common/api/shared';
import type { App, AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { reportMessage } from './reports.service';

/** Reporting a comment or a chat message (docs/product.md#reports). */
export async function reportRoutes(app: App, ctx: AppContext): Promise<void> {
  app.post(
    '/api/user/report-message',
    {
      config: { auth: 'member' },
      schema: {
        summary: 'Report a comment or a chat message',
        operationId: 'reportMessage',
        tags: ['reports'],
        body: ReportBody,
        response: { 200: ReportAnswer, 400: FieldErrors, 401: Message, 404: Message, 409: Message },
      },
    },
    async (req) => reportMessage(ctx, requireUser(req).id, req.body),
  );
}
