/**
 * The wall's pages for a moment, in memory. Everyone watching the wall asks for the same first pages; between two
 * purchases those answers differ only by the trending decay of under a second, which the client recomputes itself.
 * Any purchase on any instance clears the cache through the live bus's fund message, so a list never hides a payment
 * for longer than the message takes to arrive. Concurrent misses for one page share one database read.
 */
export class PageCache<T> {
  private readonly entries = new Map<string, { at: number; value: Promise<T> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
    private readonly maxEntries = 1000,
  ) {}

  get(key: string, load: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return load();
    const now = this.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.at >= 0 && now - hit.at < this.ttlMs) return hit.value;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    const value = load();
    const entry = { at: now, value };
    this.entries.set(key, entry);
    // A failed read is not kept: the next request tries again.
    value.catch(() => this.entries.get(key) === entry && this.entries.delete(key));
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
