import type { FastifyRequest } from 'fastify';
import type { Tenant } from '../../../common/brand';
import type { AppContext } from '../context';

/**
 * The host a request came to, lowercased `host:port`: the Host header, or X-Forwarded-Host when it came through a
 * proxy that TRUST_PROXY names (Fastify's `req.host` applies that setting).
 */
const hostOf = (req: Pick<FastifyRequest, 'host'>) => (req.host ?? '').trim().toLowerCase();

/**
 * Cash tenants (CASH_HOSTS, plus PUBLIC_URL's host) get card top-up; every other host is a charity tenant
 * (docs/product.md#tenants).
 */
export function isCashTenant(req: Pick<FastifyRequest, 'host'>, ctx: Pick<AppContext, 'config'>): boolean {
  const host = hostOf(req);
  return host !== '' && ctx.config.cashHosts.has(host);
}

/** Which brand the request's host shows: 'cash' or 'charity' (common/brand.ts). */
export const tenantOf = (req: Pick<FastifyRequest, 'host'>, ctx: Pick<AppContext, 'config'>): Tenant =>
  isCashTenant(req, ctx) ? 'cash' : 'charity';

/** `name.localhost:port`: a name under localhost, which always resolves to the reader's own machine. */
const LOOPBACK_NAME = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+localhost(:\d+)?$/;

/**
 * A charity host links may point at: listed in CHARITY_HOSTS, or a name under localhost on the port of a cash host
 * `localhost:port` (`green.localhost:3000` beside the default `localhost:3000`, the README's walk-through). The
 * latter can only ever lead the reader to their own machine, so a forged Host cannot send a link, or its secret,
 * anywhere else (docs/decisions.md, issue 22 item 14).
 */
function isKnownCharityHost(host: string, config: AppContext['config']): boolean {
  if (config.charityHosts.has(host)) return true;
  const loopback = LOOPBACK_NAME.exec(host);
  return loopback !== null && config.cashHosts.has(`localhost${loopback[1] ?? ''}`);
}

/**
 * The base URL of links that leave the request (verification mails, checkout pages), on the tenant the request came
 * to whenever its host is known (docs/decisions.md, issue 22 item 14):
 * - a known charity host (isKnownCharityHost): that host;
 * - otherwise PUBLIC_URL when set; else the request's host if it is a cash host; else the first cash host.
 * Never a host only the request names: a forged Host or X-Forwarded-Host would send the link, and its secret, there.
 */
export function publicOrigin(req: Pick<FastifyRequest, 'protocol' | 'host'>, ctx: Pick<AppContext, 'config'>): string {
  const { config } = ctx;
  const host = hostOf(req);
  const cash = host !== '' && config.cashHosts.has(host);
  if (host !== '' && !cash && isKnownCharityHost(host, config)) return `${req.protocol}://${host}`;
  if (config.publicUrl) return config.publicUrl;
  const [firstCashHost] = config.cashHosts;
  return `${req.protocol}://${cash ? host : (firstCashHost ?? `localhost:${config.port}`)}`;
}
