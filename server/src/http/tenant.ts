import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context';

type HostRequest = Pick<FastifyRequest, 'headers'>;

/**
 * Cash tenants (CASH_HOSTS, plus PUBLIC_URL's host) get card top-up; every other host is a charity tenant
 * (DESIGN.md §2 "Tenants"). The Host header decides, compared as lowercase host:port.
 */
export function isCashTenant(req: HostRequest, ctx: Pick<AppContext, 'config'>): boolean {
  const host = req.headers.host?.trim().toLowerCase();
  return host !== undefined && host !== '' && ctx.config.cashHosts.has(host);
}

/**
 * The base URL a browser reaches this server on, for links that leave by redirect (checkout pages): PUBLIC_URL
 * when set, else the request's own protocol and host (proxy headers count, as the app trusts its proxy).
 */
export function publicOrigin(req: Pick<FastifyRequest, 'protocol' | 'host'>, ctx: Pick<AppContext, 'config'>): string {
  return ctx.config.publicUrl ?? `${req.protocol}://${req.host}`;
}
