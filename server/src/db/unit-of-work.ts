import type { Db, Tx } from './connection';
import type { Bus, LiveEvent } from '../live/bus';

/**
 * One database transaction plus the live events it raises. Events are held until the transaction commits and are
 * then published, so no client ever sees a change that was rolled back (the outbox of DESIGN.md §3).
 */
export interface Work {
  tx: Tx;
  emit(event: LiveEvent): void;
}

export interface WorkDeps {
  db: Db;
  bus: Bus;
  onPublishError?: (err: unknown) => void;
}

export async function transact<T>(deps: WorkDeps, fn: (work: Work) => Promise<T>): Promise<T> {
  const events: LiveEvent[] = [];
  const result = await deps.db.transaction((tx) => fn({ tx, emit: (e) => events.push(e) }));
  for (const event of events) {
    deps.bus.publish(event).catch((err) => deps.onPublishError?.(err));
  }
  return result;
}
