import {
  liveEvent,
  type AudienceOf,
  type Channel,
  type LiveEvent,
  type Payload,
  type Topic,
} from '../../../common/live';
import type { Db, Tx } from './connection';

/** The audiences an event is raised for (common/live.ts), beside the unit of work that raises it. */
export { audience } from '../../../common/live';

/**
 * One database transaction plus the live events it raises: the one way a live event leaves the server
 * (docs/ARCHITECTURE.md "Live events"). Events are held until the transaction commits and are then handed over, so
 * no client ever sees a change that was rolled back.
 */
export interface Work {
  tx: Tx;
  /**
   * Raises a live event, typed from the channel map, handed over once the transaction commits. `to` says who hears
   * it (`audience` of common/live.ts): the public by default; a private channel's event names its user.
   */
  emit<C extends Channel, T extends Topic<C>>(channel: C, topic: T, payload: Payload<C, T>, ...to: AudienceOf<C>): void;
}

export interface WorkDeps {
  db: Db;
  /** The live bus (live/bus.ts), which carries a committed event to every instance's hub. */
  bus: { send(event: LiveEvent): Promise<void> };
  /** This instance's hub (live/hub.ts), for `thisInstance` events; without one (no sockets) they go nowhere. */
  hub?: { deliver(event: LiveEvent): void };
  /** A send that failed; the bus makes it good with a resync once it can publish again (live/redis-bus.ts). */
  onPublishError?: (err: unknown, event: LiveEvent) => void;
}

export interface Raised {
  event: LiveEvent;
  here: boolean;
}

/** How many times a transaction PostgreSQL chose as a deadlock's victim is run (the first run included). */
const DEADLOCK_TRIES = 3;

/**
 * The transaction `fn` makes, its events handed over once it commits. One that PostgreSQL rolled back to break a
 * deadlock committed nothing and raised nothing: it runs again, as a retry by its caller would
 * (docs/decisions.md, "Issue 28: one book's orders gathered into one call").
 */
export async function transact<T>(deps: WorkDeps, fn: (work: Work) => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    const raised: Raised[] = [];
    try {
      const result = await deps.db.transaction((tx) =>
        fn({
          tx,
          emit: (channel, topic, payload, ...[to]) => {
            raised.push({ event: liveEvent(channel, topic, payload, to), here: to?.kind === 'thisInstance' });
          },
        }),
      );
      handOver(deps, raised);
      return result;
    } catch (err) {
      if (tries >= DEADLOCK_TRIES || !isDeadlock(err)) throw err;
    }
  }
}

/** True when PostgreSQL broke a deadlock by rolling back the transaction `err` ended (SQLSTATE 40P01). */
export function isDeadlock(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === '40P01') return true;
  }
  return false;
}

/**
 * A committed transaction's events, in the order raised, right after the commit, so a transaction that committed
 * later hands its own over after these. Never awaited: nothing waits on Redis (docs/ARCHITECTURE.md "Live events").
 */
export function handOver(deps: WorkDeps, raised: readonly Raised[]): void {
  for (const { event, here } of raised) {
    if (here) deps.hub?.deliver(event);
    else deps.bus.send(event).catch((err) => deps.onPublishError?.(err, event));
  }
}
