/**
 * Counters in fixed windows, shared by every instance: in Redis when REDIS_URL (or REDIS_SENTINELS) is set, else in PostgreSQL (the
 * `rate_counters` table; the embedded database too). The sign-in throttle and the per-IP limits count here, so a
 * second instance does not hand out a second allowance.
 */
export interface Count {
  count: number;
  /** Milliseconds until the window ends (0 when the key has none running). */
  resetInMs: number;
}

export interface CounterStore {
  /** Adds `by` (default 1) to the key in its window; the first hit of a window starts it, lasting `windowMs`. */
  add(key: string, windowMs: number, by?: number): Promise<Count>;
  /** The key's count without changing it. */
  peek(key: string): Promise<Count>;
  /** Sets the key to 1 in a fresh window of `windowMs` (a mark that lasts, like "signed in from here"). */
  mark(key: string, windowMs: number): Promise<void>;
  clear(key: string): Promise<void>;
  close(): Promise<void>;
}
