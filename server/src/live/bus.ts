import { EventEmitter } from 'node:events';
import { liveEvent, type Channel, type LiveEvent, type Payload, type Topic } from '../../../common/live';

export type { LiveEvent };

/** Carries live events to every instance's hub: in-process by default, Redis pub/sub with REDIS_URL. */
export interface Bus {
  /** An event typed from the channel map; `userId` makes it private to that user's sockets. */
  publish<C extends Channel, T extends Topic<C>>(
    channel: C,
    topic: T,
    payload: Payload<C, T>,
    userId?: number,
  ): Promise<void>;
  /** An event already built, e.g. by a unit of work that held it until its transaction committed. */
  send(event: LiveEvent): Promise<void>;
  subscribe(handler: (event: LiveEvent) => void): () => void;
  close(): Promise<void>;
}

/** What every bus shares: the typed `publish` is `send` of the event it describes. */
export abstract class BaseBus implements Bus {
  abstract send(event: LiveEvent): Promise<void>;
  abstract subscribe(handler: (event: LiveEvent) => void): () => void;
  abstract close(): Promise<void>;

  publish<C extends Channel, T extends Topic<C>>(
    channel: C,
    topic: T,
    payload: Payload<C, T>,
    userId?: number,
  ): Promise<void> {
    return this.send(liveEvent(channel, topic, payload, userId));
  }
}

export class MemoryBus extends BaseBus {
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
