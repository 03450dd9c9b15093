import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context';

/**
 * The host a request came to, lowercased `host:port`: the Host header, or X-Forwarded-Host when it came through a
 * proxy that TRUST_PROXY names (Fastify's `req.host` applies that setting).
 */
const hostOf = (req: Pick<FastifyRequest, 'host'>) => (req.host ?? '').trim().toLowerCase();

/**
 * Cash tenants (CASH_HOSTS, plus PUBLIC_URL's host) get card top-up; every other host is a charity tenant
 * (DESIGN.md §2 "Tenants").
 */
export function isCashTenant(req: Pick<FastifyRequest, 'host'>, ctx: Pick<AppContext, 'config'>): boolean {
  const host = hostOf(req);
  return host !== '' && ctx.config.cashHosts.has(host);
}

/**
 * The base URL of links that leave the request (verification mails, checkout pages): PUBLIC_URL when set; else the
 * request's own host if it is one the operator configured (CASH_HOSTS, CHARITY_HOSTS); else the first cash host.
 * Never a host only the request names: a forged Host or X-Forwarded-Host would send the link, and its secret, there.
 */
export function publicOrigin(req: Pick<FastifyRequest, 'protocol' | 'host'>, ctx: Pick<AppContext, 'config'>): string {
  const { publicUrl, cashHosts, charityHosts, port } = ctx.config;
  if (publicUrl) return publicUrl;
  const host = hostOf(req);
  const known = host !== '' && (cashHosts.has(host) || charityHosts.has(host));
  const [firstCashHost] = cashHosts;
  return `${req.protocol}://${known ? host : (firstCashHost ?? `localhost:${port}`)}`;
}
