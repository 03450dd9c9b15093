import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { Type } from 'typebox';
import type { App } from '../context';

const MetricsText = Type.String({ description: 'Prometheus text exposition format' });

/** Prometheus text at /metrics: process figures plus request counts and latencies per route. */
export function registerMetrics(app: App): Registry {
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

  app.get('/metrics', { schema: { tags: ['operations'], response: { 200: MetricsText } } }, async (_req, reply) => {
    reply.type(registry.contentType);
    return registry.metrics();
  });
  return registry;
}
