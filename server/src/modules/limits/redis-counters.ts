import { Redis } from 'ioredis';
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

/** How long one counter command may take before the request is refused as Redis being away. */
const COMMAND_TIMEOUT_MS = 2_000;

type Script = (key: string, ...args: (string | number)[]) => Promise<[number, number]>;
interface ScriptedRedis extends Redis {
  limitsAdd: Script;
  limitsPeek: Script;
}

export class RedisCounters implements CounterStore {
  private constructor(
    private readonly redis: ScriptedRedis,
    private readonly prefix: string,
    private readonly now: () => Date,
  ) {}

  /** Resolves once connected; an unreachable Redis is one clear error, as for the live bus. */
  static async connect(
    url: string,
    opts: { prefix: string; now: () => Date; onError?: (err: Error) => void },
  ): Promise<RedisCounters> {
    // A command is bounded in time as well as in retries: a count that never comes back would hold the request
    // forever, where a timeout answers 503 like any other Redis outage.
    const redis = new Redis(url, {
      lazyConnect: true,
      maxRetriesPerRequest: 2,
      commandTimeout: COMMAND_TIMEOUT_MS,
    }) as ScriptedRedis;
    redis.on('error', opts.onError ?? ((err: Error) => console.error(`[redis-counters] ${err.message}`)));
    redis.defineCommand('limitsAdd', { numberOfKeys: 1, lua: ADD });
    redis.defineCommand('limitsPeek', { numberOfKeys: 1, lua: PEEK });
    try {
      await redis.connect();
    } catch (err) {
      redis.disconnect();
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

  async close(): Promise<void> {
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }
}
