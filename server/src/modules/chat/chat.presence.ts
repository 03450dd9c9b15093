import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { RedisTarget } from '../../db/redis-connection';

/**
 * Who has the chat room open, across instances (docs/product.md#chat: signed-in users with a socket on `chat`). Each
 * instance reports its own users (the hub tells it when a user's first socket here joins and their last one here
 * leaves); the registry answers the union, so a user with tabs on two instances counts once.
 */
export interface ChatPresence {
  join(userId: number): Promise<void>;
  leave(userId: number): Promise<void>;
  /** Every signed-in user with the room open on a live instance. */
  online(): Promise<Set<number>>;
  close(): Promise<void>;
}

/** One instance without Redis: the hub's own count is the whole truth. */
export class MemoryPresence implements ChatPresence {
  private readonly users = new Set<number>();
  async join(userId: number): Promise<void> {
    this.users.add(userId);
  }
  async leave(userId: number): Promise<void> {
    this.users.delete(userId);
  }
  async online(): Promise<Set<number>> {
    return new Set(this.users);
  }
  async close(): Promise<void> {}
}

/** An instance that has not renewed its entry for this long is taken for dead and its users for gone. */
export const INSTANCE_TTL_MS = 15_000;
const RENEW_EVERY_MS = 5_000;

/**
 * With Redis: one set of user ids per instance (`<prefix>users:<instance>`), and a sorted set of instances scored
 * by when each last renewed (`<prefix>instances`). The online users are the union of the live instances' sets. An
 * instance that dies stops renewing: its users leave the count within INSTANCE_TTL_MS, and its set expires.
 */
export class RedisPresence implements ChatPresence {
  private readonly instance = randomUUID();
  private readonly timer: NodeJS.Timeout;
  private readonly mine = new Set<number>();

  private constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    this.timer = setInterval(() => void this.renew().catch(() => {}), RENEW_EVERY_MS);
    this.timer.unref();
  }

  static async connect(target: RedisTarget, prefix: string, onError: (err: Error) => void): Promise<RedisPresence> {
    const { connectRedis, openRedis } = await import('../../db/redis-connection');
    // A command fails at once while Redis is away (no offline queue) and within a second when it hangs: the room
    // then counts this instance's own users rather than keep a request or the room job waiting.
    const redis = await openRedis(target, { lazyConnect: true, enableOfflineQueue: false, commandTimeout: 1_000 });
    redis.on('error', onError);
    await connectRedis(redis);
    const presence = new RedisPresence(redis, prefix);
    await presence.renew();
    return presence;
  }

  private get usersKey(): string {
    return `${this.prefix}users:${this.instance}`;
  }

  async join(userId: number): Promise<void> {
    this.mine.add(userId);
    await this.redis
      .multi()
      .sadd(this.usersKey, userId)
      .pexpire(this.usersKey, 3 * INSTANCE_TTL_MS)
      .exec();
  }

  async leave(userId: number): Promise<void> {
    this.mine.delete(userId);
    await this.redis.srem(this.usersKey, userId);
  }

  /**
   * The union over live instances; while Redis is away, this instance's own users (docs/decisions.md, issue 22 item
   * 27): a count too low for a while beats a room that cannot say who is there. Its set is rewritten at the next
   * renewal once Redis is back.
   */
  async online(): Promise<Set<number>> {
    try {
      const live = await this.redis.zrangebyscore(`${this.prefix}instances`, Date.now() - INSTANCE_TTL_MS, '+inf');
      if (live.length === 0) return new Set();
      const ids = await this.redis.sunion(...live.map((i) => `${this.prefix}users:${i}`));
      return new Set(ids.map(Number));
    } catch {
      return new Set(this.mine);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    try {
      await this.redis.multi().zrem(`${this.prefix}instances`, this.instance).del(this.usersKey).exec();
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }

  /** Says this instance is alive, rewrites its set (Redis may have lost it) and forgets instances long dead. */
  private async renew(): Promise<void> {
    const now = Date.now();
    const tx = this.redis
      .multi()
      .zadd(`${this.prefix}instances`, now, this.instance)
      .zremrangebyscore(`${this.prefix}instances`, '-inf', now - 10 * INSTANCE_TTL_MS)
      .del(this.usersKey);
    if (this.mine.size > 0) tx.sadd(this.usersKey, ...this.mine).pexpire(this.usersKey, 3 * INSTANCE_TTL_MS);
    await tx.exec();
  }
}

export async function openPresence(opts: {
  redis: RedisTarget | undefined;
  prefix: string;
  onError: (err: Error) => void;
}): Promise<ChatPresence> {
  if (!opts.redis) return new MemoryPresence();
  return RedisPresence.connect(opts.redis, opts.prefix, opts.onError);
}
