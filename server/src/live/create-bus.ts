import { MemoryBus, type Bus } from './bus';

/** In-process unless REDIS_URL is set; then every instance shares one Redis channel. */
export async function createBus(
  redisUrl: string | undefined,
  channel?: string,
  onError?: (err: Error) => void,
): Promise<Bus> {
  if (!redisUrl) return new MemoryBus();
  const { RedisBus } = await import('./redis-bus');
  return RedisBus.connect(redisUrl, { channel, onError });
}
