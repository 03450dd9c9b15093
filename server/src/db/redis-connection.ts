import type { Redis, RedisOptions } from 'ioredis';
import { redactUrl } from './redact-url';

/** One Sentinel's address (REDIS_SENTINELS is a comma-separated list of them). */
export interface HostPort {
  host: string;
  port: number;
}

/** Redis reached through Sentinel: the Sentinels to ask and the name of the master group they watch. */
export interface RedisSentinels {
  sentinels: HostPort[];
  /** REDIS_SENTINEL_NAME: the group's name in the Sentinels' `sentinel monitor <name> …`. */
  name: string;
}

/** Where Redis is: a URL (REDIS_URL) or a master group behind Sentinels (REDIS_SENTINELS, REDIS_SENTINEL_NAME). */
export type RedisTarget = string | RedisSentinels;

/** The one Redis the config names, if any: the Sentinels when they are set (config.ts refuses both at once). */
export function redisTarget(config: {
  redisUrl: string | undefined;
  redisSentinels: RedisSentinels | undefined;
}): RedisTarget | undefined {
  return config.redisSentinels ?? config.redisUrl;
}

/** A line-safe name of the target for error messages: the URL without its password, or the Sentinels and group. */
export function describeRedis(target: RedisTarget): string {
  if (typeof target !== 'string') {
    const list = target.sentinels.map((s) => `${s.host}:${s.port}`).join(',');
    return `master group "${target.name}" through Sentinels ${list}`;
  }
  return redactUrl(target, 'the configured REDIS_URL');
}

/**
 * Every ioredis client of the server is made here (docs/scaling.md, "Redis failover"), keeping the caller's own
 * options (lazyConnect, the offline queue, command timeouts).
 *
 * Through Sentinel, ioredis asks a Sentinel for the master's address at each (re)connection and, its ready check
 * seeing the server's role, refuses one that is a replica and asks again. On top of that:
 * - `failoverDetector`: the client listens to the Sentinels' `+switch-master` and drops its connection at once when
 *   a replica is promoted, rather than stay on a former master that a partition kept alive;
 * - a write that meets a replica anyway (`READONLY`: the master was demoted under an open connection) fails and the
 *   connection is made again, so the next command goes to the new master. The failed command takes the caller's
 *   path for a lost command (the bus announces a resync, the limits count in the database meanwhile).
 */
export async function openRedis(target: RedisTarget, options: RedisOptions): Promise<Redis> {
  // Loaded when a client is made: an instance without Redis never loads ioredis.
  const { Redis } = await import('ioredis');
  if (typeof target === 'string') return new Redis(target, options);
  return new Redis({
    // A failover takes a few seconds: asking the Sentinels again every second at most (rather than ioredis's
    // doubling pauses up to 5 s) finds the new master within about a second of its promotion.
    retryStrategy: (times: number) => Math.min(times * 100, 1_000),
    ...options,
    sentinels: target.sentinels,
    name: target.name,
    role: 'master',
    failoverDetector: true,
    reconnectOnError: (err) => err.message.startsWith('READONLY'),
  });
}

/**
 * Connects a client made with `lazyConnect`, failing on the first error before it is ready. Through Sentinel,
 * ioredis keeps asking unreachable Sentinels forever and `connect()` alone would never answer; at start, one clear
 * error is wanted instead (server/src/start-up.ts retries). The client is disconnected when it fails.
 */
export async function connectRedis(redis: Redis): Promise<void> {
  let onError: ((err: Error) => void) | undefined;
  const failed = new Promise<never>((_, reject) => {
    onError = reject;
    redis.once('error', reject);
  });
  try {
    await Promise.race([redis.connect(), failed]);
  } catch (err) {
    redis.disconnect();
    throw sentinelReason(err as Error);
  } finally {
    redis.off('error', onError!);
  }
}

/** ioredis's "All sentinels are unreachable. Retrying from scratch…", said as what it means at start. */
function sentinelReason(err: Error): Error {
  if (!err.message.startsWith('All sentinels are unreachable')) return err;
  // Each Sentinel that could not be asked leaves "Last error: Connection is closed."; none does when they all
  // answered but named no master of the group.
  const unreachable = /Last error: /.test(err.message);
  return new Error(unreachable ? 'no Sentinel answered' : 'no Sentinel knows a master of that name', { cause: err });
}
