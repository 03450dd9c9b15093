import { EventEmitter } from 'node:events';
import type { LiveEvent } from '../../../common/live';

export type { LiveEvent };

/**
 * Carries live events to every instance's hub: in-process by default, Redis pub/sub with REDIS_URL (or REDIS_SENTINELS). Only the unit of
 * work (db/unit-of-work.ts) sends on it, once its transaction has committed (docs/ARCHITECTURE.md "Live events").
 */
export interface Bus extends BusListener {
  /** An event built by a unit of work (`liveEvent` of common/live.ts), handed over after its commit. */
  send(event: LiveEvent): Promise<void>;
  close(): Promise<void>;
}

/** What a module may do with the bus: hear every event, from every instance (it never sends on it). */
export interface BusListener {
  subscribe(handler: (event: LiveEvent) => void): () => void;
}

export class MemoryBus implements Bus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  async send(event: LiveEvent): Promise<void> {
    this.emitter.emit('event', event);
  }

  subscribe(handler: (event: LiveEvent) => void): () => void {
    this.emitter.on('event', handler);
    return () => this.emitter.off('event', handler);
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}
