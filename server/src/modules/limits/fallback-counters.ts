import type { Count, CounterStore } from './counter-store';
import type { RedisCounters } from './redis-counters';

/** How often, while Redis is away, it is asked whether it is back. */
const PROBE_EVERY_MS = 1_000;

export interface FallbackEvents {
  /** Redis failed a call: counting goes to the database. */
  away(err: Error): void;
  /** Redis answers again: counting is back there, with `folded` counters carried over from the database. */
  back(folded: number): void;
}

/**
 * The shared counters with Redis configured, riding out its outages (docs/decisions.md, issue 22 item 27). Calls go
 * to Redis while it answers. A call it fails (at once when the connection is down, after its command timeout when
 * Redis hangs) is counted in the database instead (`rate_counters`, shared by every instance like Redis), and so is
 * every call after it until Redis answers a ping again. Then counting goes back to Redis, and what the database
 * counted meanwhile is folded into Redis's windows, so a limit holds across the outage. So a Redis outage stops
 * neither sign-in, sign-up nor uploads, and lifts none of their limits.
 */
export class FallbackCounters implements CounterStore {
  private away = false;
  private probe: NodeJS.Timeout | undefined;
  private probing = false;
  private closed = false;

  constructor(
    private readonly redis: RedisCounters,
    private readonly db: CounterStore,
    /** Takes the database's running counters out of it (limits.repository.ts `takeCounters`). */
    private readonly takeFromDb: () => Promise<{ key: string; count: number; expiresAt: Date }[]>,
    private readonly events: FallbackEvents,
  ) {}

  /** Whether counting is in the database now, Redis being away. */
  get inDatabase(): boolean {
    return this.away;
  }

  add(key: string, windowMs: number, by = 1): Promise<Count> {
    return this.either((store) => store.add(key, windowMs, by));
  }

  peek(key: string): Promise<Count> {
    return this.either((store) => store.peek(key));
  }

  mark(key: string, windowMs: number): Promise<void> {
    return this.either((store) => store.mark(key, windowMs));
  }

  clear(key: string): Promise<void> {
    return this.either((store) => store.clear(key));
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.probe);
    await this.redis.close();
  }

  private async either<T>(call: (store: CounterStore) => Promise<T>): Promise<T> {
    if (!this.away) {
      try {
        return await call(this.redis);
      } catch (err) {
        this.leaveRedis(err as Error);
      }
    }
    return call(this.db);
  }

  private leaveRedis(err: Error): void {
    if (this.away || this.closed) return;
    this.away = true;
    this.events.away(err);
    this.probe = setInterval(() => void this.tryRedisAgain(), PROBE_EVERY_MS);
    this.probe.unref();
  }

  private async tryRedisAgain(): Promise<void> {
    if (this.probing || this.closed || !this.away) return;
    this.probing = true;
    try {
      if (!(await this.redis.ping()) || this.closed) return;
      // Calls go to Redis from now on; then the database's counts join them there (added to running windows).
      this.away = false;
      clearInterval(this.probe);
      const counts = await this.takeFromDb();
      await this.redis.fold(counts);
      this.events.back(counts.length);
    } catch (err) {
      this.leaveRedis(err as Error); // lost again (or the database is away): the next probe tries again
    } finally {
      this.probing = false;
    }
  }
}
