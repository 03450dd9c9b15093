import type { RedisTarget } from '../db/redis-connection';
import { MemoryBus, type Bus } from './bus';

/** In-process unless Redis is configured (REDIS_URL or REDIS_SENTINELS); then every instance shares one Redis channel. */
export async function createBus(
  redis: RedisTarget | undefined,
  channel?: string,
  onError?: (err: Error) => void,
): Promise<Bus> {
  if (!redis) return new MemoryBus();
  const { RedisBus } = await import('./redis-bus');
  return RedisBus.connect(redis, { channel, onError });
}
