/**
 * Reconnecting without a stampede (docs/product.md#live): when an instance holding thousands of sockets dies, its
 * clients must not all come back in the same instant. Each waits a random time below a ceiling that doubles with
 * every failed try ("full jitter": exponential backoff, every wait drawn uniformly from zero to the ceiling), so the
 * reconnects of a crowd spread evenly over the first second and, if the survivors refuse some, wider after that.
 */

/** The ceiling of the first wait after a socket drops. */
export const RECONNECT_BASE_MS = 1_000;
/** The longest any wait may be: a client is never more than this from trying again. */
export const RECONNECT_CAP_MS = 15_000;

/**
 * How long to wait before the next try, after `failures` tries in a row that did not open (0 right after a drop),
 * given `random` in [0, 1).
 */
export function reconnectDelayMs(failures: number, random: number): number {
  const ceiling = Math.min(RECONNECT_CAP_MS, RECONNECT_BASE_MS * 2 ** Math.min(Math.max(0, failures), 30));
  return Math.floor(Math.min(Math.max(random, 0), 1) * ceiling);
}
