import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { policy } from '../../http/authorization';
import { forbidden } from '../../http/errors';
import { isCashTenant } from '../../http/tenant';

/*
 * Who may do what with donation links (docs/ARCHITECTURE.md "server/src/http/": the rule vocabulary):
 * - sending, one's own list and the public list exist on charity tenants only (a cash tenant answers 403), checked
 *   at the route edge, as the site is known from the request alone;
 * - deciding a link, the per-user and all-links lists and the option lists are 'admin' routes.
 */

export const TEXT = {
  cashTenant: 'Donation links are not available on this site. Add money with a card top-up instead.',
} as const;

interface Site {
  charity: boolean;
}
const onCharitySite = (_actor: unknown, site: Site) => site.charity;
const refuse = () => forbidden(TEXT.cashTenant);

export const charityPolicy = policy('charity', {
  // Submitting a link is refused to a suspended user (docs/product.md#suspension).
  send: { base: 'member', allow: onCharitySite, refuse },
  readOwn: { allow: onCharitySite, refuse },
  readPublic: { base: 'public', allow: onCharitySite, refuse },
});

/** The site a request reached, as the charity rules see it. */
export const siteOf = (req: FastifyRequest, ctx: Pick<AppContext, 'config'>): Site => ({
  charity: !isCashTenant(req, ctx),
});
