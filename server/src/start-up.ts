import { redactUrl } from './db/redact-url';
import { describeRedis, type RedisTarget } from './db/redis-connection';

/**
 * Start-up against services that may not be there yet (issue 9, item 14). A PostgreSQL or Redis that cannot be
 * reached is an operator's situation, not a bug: it gets one line saying which service, where and why, and the
 * server tries again with a growing pause (services often start in any order), then gives up with exit code 1.
 */

export class ServiceUnreachableError extends Error {
  constructor(
    readonly service: 'PostgreSQL' | 'Redis',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ServiceUnreachableError';
  }

  /** `Cannot reach PostgreSQL at postgres://app:***@db:5432/wall: connect ECONNREFUSED 10.0.0.5:5432` */
  static of(service: 'PostgreSQL' | 'Redis', url: string, cause: unknown): ServiceUnreachableError {
    return new ServiceUnreachableError(service, `Cannot reach ${service} at ${redactUrl(url)}: ${reasonOf(cause)}`, {
      cause,
    });
  }

  /** As `of`, for Redis by URL or through Sentinel: `Cannot reach Redis at master group "wall" through Sentinels …`. */
  static ofRedis(target: RedisTarget, cause: unknown): ServiceUnreachableError {
    return new ServiceUnreachableError('Redis', `Cannot reach Redis at ${describeRedis(target)}: ${reasonOf(cause)}`, {
      cause,
    });
  }
}

export interface RetryOptions {
  /** Keep trying this long in all (0: a single try). */
  retryForMs: number;
  /** Where the one line per failed try goes. */
  say: (line: string) => void;
  /** Pauses between tries: doubling from the first, never above the last. */
  firstPauseMs?: number;
  maxPauseMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

/** Runs `start` until it succeeds, retrying only while what fails is an unreachable service. */
export async function startWithRetry<T>(start: () => Promise<T>, opts: RetryOptions): Promise<T> {
  const sleep = opts.sleep ?? ((ms) => new Promise<void>((r) => setTimeout(r, ms)));
  const startedAt = Date.now();
  let pause = opts.firstPauseMs ?? 1_000;
  for (;;) {
    try {
      return await start();
    } catch (err) {
      if (!(err instanceof ServiceUnreachableError)) throw err;
      const left = opts.retryForMs - (Date.now() - startedAt);
      if (left <= 0) {
        const tried =
          opts.retryForMs > 0 ? ` Gave up after ${formatSeconds(Date.now() - startedAt)} (STARTUP_RETRY_MS).` : '';
        throw new ServiceUnreachableError(err.service, `${err.message}.${tried}`, { cause: err.cause });
      }
      const wait = Math.min(pause, left);
      opts.say(`${err.message}. Trying again in ${formatSeconds(wait)}.`);
      await sleep(wait);
      pause = Math.min(pause * 2, opts.maxPauseMs ?? 10_000);
    }
  }
}

const formatSeconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

/** What went wrong, in the driver's words, on one line: `connect ECONNREFUSED 127.0.0.1:5432`. */
function reasonOf(err: unknown): string {
  const e = err as { message?: unknown; code?: unknown; errors?: unknown[] } | undefined;
  // A name with several addresses (localhost: ::1 and 127.0.0.1) fails with an AggregateError and no message.
  const message = typeof e?.message === 'string' && e.message ? e.message : undefined;
  const inner = Array.isArray(e?.errors) && e.errors.length ? reasonOf(e.errors[0]) : undefined;
  return (message ?? inner ?? (typeof e?.code === 'string' ? e.code : String(err))).split('\n')[0]!;
}
