import { createHash, timingSafeEqual } from 'node:crypto';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { Type } from 'typebox';
import { Message } from '../../../common/api/shared';
import type { App } from '../context';
import { signedBy } from './authorization';

const MetricsText = Type.String({ description: 'Prometheus text exposition format' });
const MetricsHeaders = Type.Object({ authorization: Type.Optional(Type.String()) });

const digest = (text: string) => createHash('sha256').update(text).digest();

/** True when the Authorization header is `Bearer <token>`; compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match !== null && timingSafeEqual(digest(match[1]!), digest(token));
}

/**
 * Prometheus text at /metrics: process figures plus request counts and latencies per route. Served only with a
 * token (METRICS_TOKEN, sent as `Authorization: Bearer …`); without one the route does not exist (404), as the
 * figures (routes, error counts, memory) are for the operator, not for visitors.
 */
export function registerMetrics(app: App, token: string | undefined): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer a request, by route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const errors = new Counter({
    name: 'http_server_errors_total',
    help: 'Answers with a 5xx status',
    labelNames: ['route'],
    registers: [registry],
  });

  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    duration.observe({ method: req.method, route, status: reply.statusCode }, reply.elapsedTime / 1000);
    if (reply.statusCode >= 500) errors.inc({ route });
  });

  if (token === undefined) return registry;
  app.get(
    '/metrics',
    {
      config: { auth: signedBy('metrics-token') },
      schema: {
        tags: ['operations'],
        summary: 'Prometheus metrics of this instance',
        operationId: 'getMetrics',
        headers: MetricsHeaders,
        description: 'Needs `Authorization: Bearer <METRICS_TOKEN>`; not served when METRICS_TOKEN is unset.',
        response: { 200: MetricsText, 401: Message },
      },
    },
    async (req, reply) => {
      if (!bearerMatches(req.headers.authorization, token)) {
        return reply
          .code(401)
          .header('www-authenticate', 'Bearer realm="metrics"')
          .send({ message: 'This needs the metrics token.' });
      }
      reply.type(registry.contentType);
      return registry.metrics();
    },
  );
  return registry;
}
