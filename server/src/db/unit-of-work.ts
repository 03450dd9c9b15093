import { liveEvent, type Audience, type Channel, type LiveEvent, type Payload, type Topic } from '../../../common/live';
import type { Db, Tx } from './connection';

/**
 * One database transaction plus the live events it raises. Events are held until the transaction commits and are
 * then published, so no client ever sees a change that was rolled back (the outbox of docs/product.md#live).
 */
export interface Work {
  tx: Tx;
  /** Raises a live event, typed from the channel map, sent once the transaction commits; `to` as in liveEvent. */
  emit<C extends Channel, T extends Topic<C>>(channel: C, topic: T, payload: Payload<C, T>, to?: Audience): void;
}

export interface WorkDeps {
  db: Db;
  /** Hands a committed event to the live bus. */
  send(event: LiveEvent): Promise<void>;
  onPublishError?: (err: unknown) => void;
}

export async function transact<T>(deps: WorkDeps, fn: (work: Work) => Promise<T>): Promise<T> {
  const events: LiveEvent[] = [];
  const result = await deps.db.transaction((tx) =>
    fn({ tx, emit: (channel, topic, payload, to) => events.push(liveEvent(channel, topic, payload, to)) }),
  );
  for (const event of events) {
    deps.send(event).catch((err) => deps.onPublishError?.(err));
  }
  return result;
}
