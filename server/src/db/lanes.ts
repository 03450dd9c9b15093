import type { OneCaller } from './one-call';

/**
 * Calls that meet at one row's lock (one user's balance, one book) wait in this process instead of at the lock, and
 * go together (docs/decisions.md, "Issue 28: the ledger spend in one round trip"): a key's first call goes at once,
 * and the calls of that key that arrive while it runs go as the next batch, in the order they came, at most `max`
 * a batch. `runBatch` settles each of its calls itself and never throws.
 */
export function gatheredLanes<W>(
  max: number,
  runBatch: (caller: OneCaller, batch: readonly W[]) => Promise<void>,
): (caller: OneCaller, key: number, waiting: W) => void {
  /** Per database, per key: the calls running (the first ones) and those waiting behind them. */
  const lanesByDb = new WeakMap<object, Map<number, W[]>>();
  const run = async (caller: OneCaller, lanes: Map<number, W[]>, key: number, lane: W[]) => {
    while (lane.length > 0) {
      const batch = lane.slice(0, max);
      await runBatch(caller, batch);
      lane.splice(0, batch.length);
    }
    lanes.delete(key);
  };
  return (caller, key, waiting) => {
    let lanes = lanesByDb.get(caller.db);
    if (!lanes) lanesByDb.set(caller.db, (lanes = new Map()));
    let lane = lanes.get(key);
    if (!lane) lanes.set(key, (lane = []));
    lane.push(waiting);
    if (lane.length === 1) void run(caller, lanes, key, lane);
  };
}
