/**
 * Counts failed password logins per account, so one account cannot be guessed at from many addresses (the per-IP
 * limit does not see that). Kept in this process's memory: with several instances each one counts on its own,
 * which multiplies the allowance by the number of instances; a shared Redis counter (INCR + EXPIRE) closes that gap.
 */
export class LoginThrottle {
  private readonly failures = new Map<string, { count: number; since: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => Date,
    /** Upper bound on remembered accounts, so a flood of made-up usernames cannot grow memory without end. */
    private readonly maxEntries = 100_000,
  ) {}

  /** True when the account has used up its failed attempts for the current window. */
  blocked(username: string): boolean {
    const entry = this.live(username.toLowerCase());
    return entry !== undefined && entry.count >= this.limit;
  }

  fail(username: string): void {
    const key = username.toLowerCase();
    const entry = this.live(key);
    if (entry) {
      entry.count += 1;
      return;
    }
    if (this.failures.size >= this.maxEntries) this.sweep();
    this.failures.set(key, { count: 1, since: this.now().getTime() });
  }

  succeed(username: string): void {
    this.failures.delete(username.toLowerCase());
  }

  private live(key: string) {
    const entry = this.failures.get(key);
    if (entry && this.now().getTime() - entry.since >= this.windowMs) {
      this.failures.delete(key);
      return undefined;
    }
    return entry;
  }

  private sweep(): void {
    const cutoff = this.now().getTime() - this.windowMs;
    for (const [key, entry] of this.failures) if (entry.since <= cutoff) this.failures.delete(key);
    // Still full of fresh entries: forget the oldest half rather than refuse to count.
    if (this.failures.size >= this.maxEntries) {
      let drop = Math.floor(this.failures.size / 2);
      for (const key of this.failures.keys()) {
        if (drop-- <= 0) break;
        this.failures.delete(key);
      }
    }
  }
}
