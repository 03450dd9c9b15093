import type { App, AppContext } from '../../context';
import { isAdmin } from '../../http/authorization';
import { fieldError, forbidden } from '../../http/errors';
import { checkConservation } from '../../ledger/conservation';
import { requireUser } from '../../http/auth';
import { listReports } from '../reports/reports.service';
import { AdminReports, AdminReportsQuery, AmIWorthyAnswer, ConservationReport } from '../../../../common/api/admin';
import { FieldErrors, Message } from '../../../../common/api/shared';

/** Admin-only calls. Rights are granted with `npm run admin -- grant USERNAME`. */
export async function adminRoutes(app: App, ctx: AppContext): Promise<void> {
  // The admin console waits for YES; anything else keeps it on its loading text (docs/product.md#admin). Any
  // signed-in user may ask: the answer is the admin rule's.
  app.get(
    '/api/admin/am-i-worthy',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Whether the signed-in user is an administrator',
        operationId: 'amIAdmin',
        tags: ['admin'],
        response: { 200: AmIWorthyAnswer, 401: Message, 403: Message },
      },
    },
    async (req) => {
      if (!isAdmin(requireUser(req))) throw forbidden('NO');
      return { message: 'YES' as const };
    },
  );

  // The books at this moment (docs/product.md#money): a health view for whoever answers for the money.
  app.get(
    '/api/admin/ledger-check',
    {
      config: { auth: 'admin' },
      schema: {
        summary: "The books' conservation report",
        operationId: 'checkLedger',
        tags: ['admin'],
        response: { 200: ConservationReport, 401: Message, 403: Message },
      },
    },
    async () => checkConservation(ctx.db),
  );

  // The console's Reports tab (docs/product.md#admin): reports of comments and chat messages, newest first.
  app.get(
    '/api/admin/reports',
    {
      config: { auth: 'admin' },
      schema: {
        summary: 'Reports of comments and chat messages, newest first',
        operationId: 'listReports',
        tags: ['admin'],
        querystring: AdminReportsQuery,
        response: { 200: AdminReports, 400: FieldErrors, 401: Message, 403: Message },
      },
    },
    async (req) => {
      const limit = req.query.limit === undefined ? undefined : Number(req.query.limit);
      if (limit !== undefined && (limit < 1 || limit > 200)) throw fieldError('limit', 'Ask for 1 to 200 reports.');
      const beforeId = req.query.beforeId === undefined ? undefined : Number(req.query.beforeId);
      return listReports(ctx.db, { limit, beforeId });
    },
  );
}
