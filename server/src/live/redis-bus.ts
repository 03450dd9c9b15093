import { Redis } from 'ioredis';
import { BaseBus, type LiveEvent } from './bus';

export interface RedisBusOptions {
  /** The pub/sub channel; pub/sub ignores Redis database numbers, so this is what keeps deployments apart. */
  channel?: string;
  /** Connection trouble after start; ioredis reconnects (and resubscribes) by itself. */
  onError?: (err: Error) => void;
}

type Handler = (event: LiveEvent) => void;

/**
 * Live events through one Redis pub/sub channel, so an event raised on any instance reaches every instance's hub.
 * A publish is delivered only through Redis, the publishing instance included: each hub hears each event once.
 */
export class RedisBus extends BaseBus {
  private readonly handlers = new Set<Handler>();

  private constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly channel: string,
  ) {
    super();
    subscriber.on('message', (ch: string, raw: string) => {
      if (ch !== this.channel) return;
      const event = parseEvent(raw);
      if (!event) return;
      for (const handler of this.handlers) handler(event);
    });
  }

  /** Resolves once both connections are up and the subscription is in place. */
  static async connect(url: string, opts: RedisBusOptions = {}): Promise<RedisBus> {
    const channel = opts.channel ?? 'wall:live';
    const onError = opts.onError ?? ((err: Error) => console.error(`[redis-bus] ${err.message}`));
    // A subscriber connection can run no other command, hence two connections.
    const publisher = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
    const subscriber = new Redis(url, { lazyConnect: true });
    publisher.on('error', onError);
    subscriber.on('error', onError);
    try {
      await Promise.all([publisher.connect(), subscriber.connect()]);
      await subscriber.subscribe(channel);
    } catch (err) {
      publisher.disconnect();
      subscriber.disconnect();
      throw new Error(`Cannot reach Redis at ${redact(url)}: ${(err as Error).message}`, { cause: err });
    }
    return new RedisBus(publisher, subscriber, channel);
  }

  async send(event: LiveEvent): Promise<void> {
    await this.publisher.publish(this.channel, JSON.stringify(event));
  }

  subscribe(handler: Handler): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  async close(): Promise<void> {
    this.handlers.clear();
    await Promise.all([quit(this.publisher), quit(this.subscriber)]);
  }
}

async function quit(conn: Redis): Promise<void> {
  try {
    await conn.quit();
  } catch {
    conn.disconnect(); // already gone: nothing left to say goodbye to
  }
}

function parseEvent(raw: string): LiveEvent | undefined {
  try {
    const e = JSON.parse(raw) as Partial<LiveEvent> | null;
    if (!e || typeof e.ch !== 'string' || typeof e.t !== 'string') return undefined;
    if (e.userId !== undefined && !Number.isSafeInteger(e.userId)) return undefined;
    return e as LiveEvent;
  } catch {
    return undefined;
  }
}

/** The URL without its password, for error messages. */
function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the configured REDIS_URL';
  }
}
