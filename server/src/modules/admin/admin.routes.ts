import type { App, AppContext } from '../../context';
import { forbidden } from '../../http/errors';
import { checkConservation } from '../../ledger/conservation';
import { requireAdmin, requireUser } from '../auth/session';
import { AmIWorthy, LedgerCheck } from './admin.schemas';

/** Admin-only calls. Rights are granted with `npm run admin -- grant USERNAME`. */
export async function adminRoutes(app: App, ctx: AppContext): Promise<void> {
  // The admin console waits for YES; anything else keeps it on its loading text (SPEC §6 "Administrator").
  app.get('/api/admin/am-i-worthy', { schema: AmIWorthy }, async (req) => {
    if (!requireUser(req).isAdmin) throw forbidden('NO');
    return { message: 'YES' as const };
  });

  // The books at this moment (DESIGN.md §3): a health view for whoever answers for the money.
  app.get('/api/admin/ledger-check', { schema: LedgerCheck }, async (req) => {
    requireAdmin(req);
    return checkConservation(ctx.db);
  });
}
