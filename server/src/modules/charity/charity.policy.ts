import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { requireAdmin, type SessionUser } from '../../http/auth';
import { forbidden } from '../../http/errors';
import { isCashTenant } from '../../http/tenant';

/*
 * Who may do what with donation links (docs/product.md#charity):
 * - sending, one's own list and the public list exist on charity tenants only (a cash tenant answers 403);
 * - a user sees their own links in full, the public sees decided, publicly visible links without their sender;
 * - deciding a link, the per-user and all-links lists and the option lists are for administrators: 401 to
 *   visitors, 403 to everyone else. charity.policy.test.ts and admin.policy.test.ts prove it.
 */

export const TEXT = {
  cashTenant: 'Donation links are not available on this site. Add money with a card top-up instead.',
} as const;

/** Donation links work on charity tenants only. */
export function requireCharityTenant(req: FastifyRequest, ctx: Pick<AppContext, 'config'>): void {
  if (isCashTenant(req, ctx)) throw forbidden(TEXT.cashTenant);
}

/** Deciding links and reading anybody's links: administrators only. */
export const requireCharityAdmin = (req: FastifyRequest): SessionUser => requireAdmin(req);
