import type { Db } from '../../db/connection';
import type { RedisTarget } from '../../db/redis-connection';
import type { Count, CounterStore } from './counter-store';
import { FallbackCounters, type FallbackEvents } from './fallback-counters';
import {
  addToCounter,
  deleteCounter,
  deleteExpiredCounters,
  readCounter,
  setCounter,
  takeCounters,
} from './limits.repository';

export type { Count, CounterStore } from './counter-store';

const EMPTY: Count = { count: 0, resetInMs: 0 };
const SWEEP_EVERY_MS = 60_000;

/** Counters in the database: one upsert per hit, atomic across instances; ended windows are swept once a minute. */
export class DbCounters implements CounterStore {
  private lastSweep = 0;

  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
  ) {}

  async add(key: string, windowMs: number, by = 1): Promise<Count> {
    const now = this.now();
    await this.sweep(now);
    const row = await addToCounter(this.db, key, by, now, windowMs);
    return { count: row.count, resetInMs: Math.max(0, row.expiresAt.getTime() - now.getTime()) };
  }

  async peek(key: string): Promise<Count> {
    const now = this.now();
    const row = await readCounter(this.db, key, now);
    return row ? { count: row.count, resetInMs: row.expiresAt.getTime() - now.getTime() } : EMPTY;
  }

  async mark(key: string, windowMs: number): Promise<void> {
    await setCounter(this.db, key, 1, this.now(), windowMs);
  }

  async clear(key: string): Promise<void> {
    await deleteCounter(this.db, key);
  }

  async close(): Promise<void> {}

  private async sweep(now: Date): Promise<void> {
    if (Math.abs(now.getTime() - this.lastSweep) < SWEEP_EVERY_MS) return;
    this.lastSweep = now.getTime();
    await deleteExpiredCounters(this.db, now);
  }
}

/**
 * Opens the counters for this deployment: Redis when `redis` is set (keys under `prefix`, so deployments
 * sharing a Redis stay apart), with the database standing in while Redis is away (fallback-counters.ts); else the
 * database.
 */
export async function openCounters(opts: {
  redis: RedisTarget | undefined;
  prefix: string;
  db: Db;
  now: () => Date;
  onError?: (err: Error) => void;
  events?: FallbackEvents;
}): Promise<CounterStore> {
  const db = new DbCounters(opts.db, opts.now);
  if (!opts.redis) return db;
  const { RedisCounters } = await import('./redis-counters');
  const redis = await RedisCounters.connect(opts.redis, {
    prefix: opts.prefix,
    now: opts.now,
    onError: opts.onError,
  });
  const events = opts.events ?? { away: () => {}, back: () => {} };
  return new FallbackCounters(redis, db, () => takeCounters(opts.db, opts.now()), events);
}
