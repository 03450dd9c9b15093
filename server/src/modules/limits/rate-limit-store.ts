import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { CounterStore } from './counter-store';

type Callback = Parameters<FastifyRateLimitStore['incr']>[1];

/**
 * @fastify/rate-limit's store over our counters: every route's limit (`config.rateLimit`) counts in Redis or
 * PostgreSQL, shared by all instances, under `rl:{METHOD}{url}:{key}`.
 */
export function rateLimitStore(counters: CounterStore): FastifyRateLimitStoreCtor {
  class CountersStore implements FastifyRateLimitStore {
    constructor(
      _options: unknown,
      private readonly prefix = 'rl:',
    ) {}

    incr(key: string, callback: Callback, timeWindow: number): void {
      counters.add(this.prefix + key, timeWindow).then(
        ({ count, resetInMs }) => callback(null, { current: count, ttl: resetInMs }),
        (err: Error) => callback(err),
      );
    }

    child(routeOptions: object): FastifyRateLimitStore {
      const route = (routeOptions as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo;
      return new CountersStore(routeOptions, `rl:${String(route?.method ?? '')}${String(route?.url ?? '')}:`);
    }
  }
  return CountersStore;
}
