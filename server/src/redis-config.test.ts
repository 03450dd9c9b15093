import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { describeRedis, redisTarget } from './db/redis-connection';

/** REDIS_SENTINELS and REDIS_SENTINEL_NAME (docs/scaling.md, "Redis failover"): good values, and one line for bad ones. */
describe('Redis through Sentinel in the config', () => {
  const load = (env: Record<string, string>) => loadConfig({ PORT: '3000', ...env });

  it('reads the Sentinels and the group, and uses them instead of a URL', () => {
    const config = load({
      REDIS_SENTINELS: '10.0.0.1:26379, sentinel-2.internal:26380,[::1]:26381',
      REDIS_SENTINEL_NAME: 'wall',
    });
    expect(config.redisSentinels).toEqual({
      sentinels: [
        { host: '10.0.0.1', port: 26379 },
        { host: 'sentinel-2.internal', port: 26380 },
        { host: '::1', port: 26381 },
      ],
      name: 'wall',
    });
    expect(config.redisUrl).toBeUndefined();
    expect(redisTarget(config)).toBe(config.redisSentinels);
    expect(describeRedis(redisTarget(config)!)).toBe(
      'master group "wall" through Sentinels 10.0.0.1:26379,sentinel-2.internal:26380,::1:26381',
    );
  });

  it('leaves REDIS_URL alone, its password kept out of messages', () => {
    const config = load({ REDIS_URL: 'redis://:hunter2@redis.internal:6379/0' });
    expect(config.redisSentinels).toBeUndefined();
    expect(describeRedis(redisTarget(config)!)).toBe('redis://:***@redis.internal:6379/0');
    expect(redisTarget(load({}))).toBeUndefined();
  });

  it.each([
    [
      { REDIS_SENTINELS: '127.0.0.1:26379' },
      'REDIS_SENTINELS needs REDIS_SENTINEL_NAME, the master group name the Sentinels monitor',
    ],
    [{ REDIS_SENTINEL_NAME: 'wall' }, 'REDIS_SENTINEL_NAME is set without REDIS_SENTINELS (host:port,…)'],
    [
      { REDIS_SENTINELS: '127.0.0.1:26379', REDIS_SENTINEL_NAME: 'wall', REDIS_URL: 'redis://127.0.0.1:6379' },
      'REDIS_SENTINELS and REDIS_URL are both set: set one (REDIS_SENTINELS for Sentinel)',
    ],
    [
      { REDIS_SENTINELS: '127.0.0.1:26379,127.0.0.2', REDIS_SENTINEL_NAME: 'wall' },
      'REDIS_SENTINELS must be a comma-separated list of host:port, got "127.0.0.2" in "127.0.0.1:26379,127.0.0.2"',
    ],
    [
      { REDIS_SENTINELS: '127.0.0.1:99999', REDIS_SENTINEL_NAME: 'wall' },
      'REDIS_SENTINELS must be a comma-separated list of host:port, got "127.0.0.1:99999" in "127.0.0.1:99999"',
    ],
    [
      { REDIS_SENTINELS: 'redis://127.0.0.1:26379', REDIS_SENTINEL_NAME: 'wall' },
      'REDIS_SENTINELS must be a comma-separated list of host:port, got "redis://127.0.0.1:26379" in "redis://127.0.0.1:26379"',
    ],
    [
      { REDIS_SENTINELS: '127.0.0.1:26379,', REDIS_SENTINEL_NAME: 'wall' },
      'REDIS_SENTINELS must be a comma-separated list of host:port, got "" in "127.0.0.1:26379,"',
    ],
    [
      { REDIS_SENTINELS: '127.0.0.1:26379', REDIS_SENTINEL_NAME: 'my wall' },
      'REDIS_SENTINEL_NAME must be one word, got "my wall"',
    ],
  ])('refuses %j with one line naming the variable', (env, line) => {
    expect(() => load(env)).toThrow(new Error(line));
  });
});
