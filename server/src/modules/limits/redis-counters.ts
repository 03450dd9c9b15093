import type { Redis } from 'ioredis';
import { connectRedis, openRedis, type RedisTarget } from '../../db/redis-connection';
import type { Count, CounterStore } from './counter-store';

/*
 * A counter is a hash {c: count, e: window end in ms}. The window is measured on the app's clock (passed in), the
 * same clock the database counters use, so a test can move time; Redis's own expiry only reclaims the memory.
 */
const ADD = `
local now = tonumber(ARGV[1])
local v = redis.call('HMGET', KEYS[1], 'c', 'e')
local c = tonumber(v[1])
local e = tonumber(v[2])
if c == nil or e == nil or e <= now then
  c = 0
  e = now + tonumber(ARGV[2])
end
c = c + tonumber(ARGV[3])
if c < 0 then c = 0 end
redis.call('HSET', KEYS[1], 'c', c, 'e', e)
redis.call('PEXPIRE', KEYS[1], e - now + 1000)
return {c, e - now}
`;

const PEEK = `
local now = tonumber(ARGV[1])
local v = redis.call('HMGET', KEYS[1], 'c', 'e')
local c = tonumber(v[1])
local e = tonumber(v[2])
if c == nil or e == nil or e <= now then return {0, 0} end
return {c, e - now}
`;

/*
 * Folds a count kept elsewhere meanwhile (the database, while Redis was away) into the key: added to a window that
 * is still running, else taking the key over with its own window end (ARGV: now, count, window end in ms).
 */
const FOLD = `
local now = tonumber(ARGV[1])
local e = tonumber(redis.call('HGET', KEYS[1], 'e'))
if e ~= nil and e > now then
  redis.call('HINCRBY', KEYS[1], 'c', tonumber(ARGV[2]))
else
  e = tonumber(ARGV[3])
  redis.call('HSET', KEYS[1], 'c', tonumber(ARGV[2]), 'e', e)
end
redis.call('PEXPIRE', KEYS[1], e - now + 1000)
return 1
`;

/** How long one counter command may take before Redis is taken for away (limits.service.ts counts elsewhere). */
const COMMAND_TIMEOUT_MS = 1_000;

type Script = (key: string, ...args: (string | number)[]) => Promise<[number, number]>;
interface ScriptedRedis extends Redis {
  limitsAdd: Script;
  limitsPeek: Script;
  limitsFold: (key: string, now: number, count: number, end: number) => Promise<number>;
}

export class RedisCounters implements CounterStore {
  private constructor(
    private readonly redis: ScriptedRedis,
    private readonly prefix: string,
    private readonly now: () => Date,
  ) {}

  /** Resolves once connected; an unreachable Redis is one clear error, as for the live bus. */
  static async connect(
    target: RedisTarget,
    opts: { prefix: string; now: () => Date; onError?: (err: Error) => void },
  ): Promise<RedisCounters> {
    // A command fails at once while the connection is down (no offline queue to wait in) and within
    // COMMAND_TIMEOUT_MS when Redis hangs: the caller then counts in the database (FallbackCounters).
    const redis = (await openRedis(target, {
      lazyConnect: true,
      enableOfflineQueue: false,
      commandTimeout: COMMAND_TIMEOUT_MS,
    })) as ScriptedRedis;
    redis.on('error', opts.onError ?? ((err: Error) => console.error(`[redis-counters] ${err.message}`)));
    redis.defineCommand('limitsAdd', { numberOfKeys: 1, lua: ADD });
    redis.defineCommand('limitsPeek', { numberOfKeys: 1, lua: PEEK });
    redis.defineCommand('limitsFold', { numberOfKeys: 1, lua: FOLD });
    try {
      await connectRedis(redis);
    } catch (err) {
      throw new Error(`Cannot reach Redis for rate limits: ${(err as Error).message}`, { cause: err });
    }
    return new RedisCounters(redis, opts.prefix, opts.now);
  }

  async add(key: string, windowMs: number, by = 1): Promise<Count> {
    const [count, resetInMs] = await this.redis.limitsAdd(this.prefix + key, this.now().getTime(), windowMs, by);
    return { count: Number(count), resetInMs: Number(resetInMs) };
  }

  async peek(key: string): Promise<Count> {
    const [count, resetInMs] = await this.redis.limitsPeek(this.prefix + key, this.now().getTime());
    return { count: Number(count), resetInMs: Number(resetInMs) };
  }

  async mark(key: string, windowMs: number): Promise<void> {
    const k = this.prefix + key;
    await this.redis
      .multi()
      .del(k)
      .hset(k, 'c', 1, 'e', this.now().getTime() + windowMs)
      .pexpire(k, windowMs + 1000)
      .exec();
  }

  async clear(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }

  /** Adds counts kept elsewhere meanwhile to the keys' windows here (see FOLD). */
  async fold(counts: readonly { key: string; count: number; expiresAt: Date }[]): Promise<void> {
    const now = this.now().getTime();
    for (const { key, count, expiresAt } of counts) {
      if (expiresAt.getTime() > now) await this.redis.limitsFold(this.prefix + key, now, count, expiresAt.getTime());
    }
  }

  /** Whether Redis answers now. */
  async ping(): Promise<boolean> {
    try {
      return (await this.redis.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }
}
