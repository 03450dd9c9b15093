import { EventEmitter } from 'node:events';
import type { Channel, Envelope } from '../../../common/live';

/** An event on its way to sockets. `userId` set: only that user's sockets receive it. */
export type LiveEvent = Envelope & { userId?: number };

/** Carries live events to every instance's hub: in-process by default, Redis pub/sub with REDIS_URL. */
export interface Bus {
  publish(event: LiveEvent): Promise<void>;
  subscribe(handler: (event: LiveEvent) => void): () => void;
  close(): Promise<void>;
}

export class MemoryBus implements Bus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  async publish(event: LiveEvent): Promise<void> {
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

/** A private event for one user, e.g. their new balance. */
export function userEvent<C extends Channel>(userId: number, ch: C, m: Envelope<C>['m'], t = 'update'): LiveEvent {
  return { ch, t, m, userId } as LiveEvent;
}
