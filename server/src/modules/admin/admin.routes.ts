import type { App, AppContext } from '../../context';
import { forbidden } from '../../http/errors';
import { checkConservation } from '../../ledger/conservation';
import { requireAdmin, requireUser } from '../../http/auth';
import { isAdmin } from './admin.policy';
import { AmIWorthyAnswer, ConservationReport } from '../../../../common/api/admin';
import { Message } from '../../../../common/api/shared';

/** Admin-only calls. Rights are granted with `npm run admin -- grant USERNAME`. */
export async function adminRoutes(app: App, ctx: AppContext): Promise<void> {
  // The admin console waits for YES; anything else keeps it on its loading text (SPEC §6 "Administrator").
  app.get(
    '/api/admin/am-i-worthy',
    { schema: { tags: ['admin'], response: { 200: AmIWorthyAnswer, 401: Message, 403: Message } } },
    async (req) => {
      if (!isAdmin(requireUser(req))) throw forbidden('NO');
      return { message: 'YES' as const };
    },
  );

  // The books at this moment (DESIGN.md §3): a health view for whoever answers for the money.
  app.get(
    '/api/admin/ledger-check',
    { schema: { tags: ['admin'], response: { 200: ConservationReport, 401: Message, 403: Message } } },
    async (req) => {
      requireAdmin(req);
      return checkConservation(ctx.db);
    },
  );
}
