import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { liveEvent } from '../../../common/live';
import { connectRedis, describeRedis, openRedis, type RedisTarget } from '../db/redis-connection';
import type { Bus, LiveEvent } from './bus';

export interface RedisBusOptions {
  /** The pub/sub channel; pub/sub ignores Redis database numbers, so this is what keeps deployments apart. */
  channel?: string;
  /** Connection trouble after start; ioredis reconnects (and resubscribes) by itself. */
  onError?: (err: Error) => void;
  /** How often the bus checks it hears itself (below); tests shorten it. */
  heartbeatMs?: number;
}

/** The bus's own check, published beside the events: never handed to a hub. */
const HEARTBEAT = 'wall-bus-heartbeat';
/** Heartbeats missed in a row after which both connections are made again. */
const DEAF_AFTER = 3;
/** Heartbeats a connection may spend being made again before it is made again from the start. */
const STUCK_AFTER = 5;

type Handler = (event: LiveEvent) => void;

/** What a hub hears when events may have been lost: it tells its sockets to refetch (common/live.ts). */
const RESYNC: LiveEvent = liveEvent('control', 'resync', {});

/**
 * Live events through one Redis pub/sub channel, so an event raised on any instance reaches every instance's hub.
 * A publish is delivered only through Redis, the publishing instance included: each hub hears each event once.
 *
 * Pub/sub keeps nothing for a listener that is away. So when the subscriber connection comes back after losing
 * Redis, this instance's hub hears a `control`/`resync` (its sockets may have missed anything); and when a publish
 * of this instance failed, a resync is published to every instance once publishing works again (the event is lost
 * for all of them).
 */
export class RedisBus implements Bus {
  private readonly handlers = new Set<Handler>();
  /** The subscriber lost its connection since it last had its subscription in place. */
  private listenerLost = false;
  /** A publish failed since the last resync announced to every instance. */
  private publishLost = false;
  private closing = false;
  /** This bus's heartbeat: what it publishes, to hear it back. */
  private readonly beat = `${HEARTBEAT}:${randomBytes(6).toString('hex')}`;
  private lastHeard = Date.now();
  /** Since when a connection is down, if one is. */
  private notReadySince: number | undefined;
  private readonly heartbeat: NodeJS.Timeout;

  private constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly channel: string,
    heartbeatMs: number,
    /** Through Sentinel, a publisher on a replica is made again (below); a REDIS_URL is taken as it is. */
    private readonly throughSentinel: boolean,
  ) {
    subscriber.on('message', (ch: string, raw: string) => {
      if (ch !== this.channel) return;
      if (raw.startsWith(HEARTBEAT)) {
        if (raw === this.beat) this.lastHeard = Date.now();
        return;
      }
      const event = parseEvent(raw);
      if (event) this.hand(event);
    });
    this.heartbeat = setInterval(() => void this.checkHearing(heartbeatMs), heartbeatMs);
    this.heartbeat.unref();
    subscriber.on('close', () => {
      if (!this.closing) this.listenerLost = true;
    });
    subscriber.on('ready', () => void this.listenAgain());
    publisher.on('ready', () => void this.announceLoss());
  }

  /**
   * Resolves once both connections are up and the subscription is in place. Through Sentinel a failover is one more
   * lost connection: both come back on the new master and the resyncs above follow (docs/scaling.md, "Redis failover").
   */
  static async connect(target: RedisTarget, opts: RedisBusOptions = {}): Promise<RedisBus> {
    const channel = opts.channel ?? 'wall:live';
    const heartbeatMs = opts.heartbeatMs ?? 2_000;
    const onError = opts.onError ?? ((err: Error) => console.error(`[redis-bus] ${err.message}`));
    // A subscriber connection can run no other command, hence two connections.
    const publisher = await openRedis(target, { lazyConnect: true, maxRetriesPerRequest: 3 });
    const subscriber = await openRedis(target, { lazyConnect: true });
    publisher.on('error', onError);
    subscriber.on('error', onError);
    try {
      await Promise.all([connectRedis(publisher), connectRedis(subscriber)]);
      await subscriber.subscribe(channel);
    } catch (err) {
      publisher.disconnect();
      subscriber.disconnect();
      throw new Error(`Cannot reach Redis at ${describeRedis(target)}: ${(err as Error).message}`, { cause: err });
    }
    return new RedisBus(publisher, subscriber, channel, heartbeatMs, typeof target !== 'string');
  }

  async send(event: LiveEvent): Promise<void> {
    try {
      await this.publisher.publish(this.channel, JSON.stringify(event));
    } catch (err) {
      this.publishLost = true;
      throw err;
    }
    if (this.publishLost) void this.announceLoss();
  }

  subscribe(handler: Handler): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.heartbeat);
    this.handlers.clear();
    await Promise.all([quit(this.publisher), quit(this.subscriber)]);
  }

  private hand(event: LiveEvent): void {
    for (const handler of this.handlers) handler(event);
  }

  /**
   * Back after a loss: ioredis subscribes again by itself, but only once that answers is the channel heard again,
   * so the resync waits for it (refetching earlier could miss an event sent between the refetch and the subscribe).
   */
  private async listenAgain(): Promise<void> {
    if (!this.listenerLost || this.closing) return;
    try {
      await this.subscriber.subscribe(this.channel);
    } catch {
      return; // lost again: the next 'ready' tries again
    }
    if (!this.listenerLost || this.closing) return; // another 'ready' got there first
    this.listenerLost = false;
    this.hand(RESYNC);
  }

  /**
   * Publishes this bus's heartbeat and checks the last one came back. A failover can leave the two connections where
   * neither errs and nothing arrives (the subscriber on a node the publishers no longer reach, say): the events of
   * every instance would be lost to this one's sockets for good. So at each beat (docs/scaling.md, "Redis failover"):
   * - not hearing itself for DEAF_AFTER beats, or its publisher on a node that is no longer the master (its
   *   publishes would reach only that node's listeners), the bus makes both connections again (through Sentinel, to
   *   the master it names now); their 'ready' subscribes again and sends the resyncs, as after any lost connection;
   * - a connection not ready for STUCK_AFTER beats is made again from the start, and a subscription lost while both
   *   are up is taken up again, so no state of ioredis's reconnection can leave this instance deaf without a resync.
   */
  private async checkHearing(everyMs: number): Promise<void> {
    if (this.closing) return;
    const now = Date.now();
    if (this.publisher.status !== 'ready' || this.subscriber.status !== 'ready') {
      this.lastHeard = now; // a connection being made again is judged once it is up
      this.notReadySince ??= now;
      if (now - this.notReadySince > everyMs * STUCK_AFTER) {
        this.notReadySince = now;
        this.remake('a Redis connection was not ready for ' + Math.round((everyMs * STUCK_AFTER) / 1000) + ' s');
      }
      return;
    }
    this.notReadySince = undefined;
    if (now - this.lastHeard > everyMs * DEAF_AFTER) {
      this.lastHeard = now;
      this.remake(`its own heartbeat was not heard for ${DEAF_AFTER} beats`);
      return;
    }
    if (this.listenerLost) void this.listenAgain();
    // A heartbeat that cannot be published is no news: the publisher's own errors say that.
    await this.publisher.publish(this.channel, this.beat).catch(() => {});
    if (!this.throughSentinel) return;
    const role = await this.publisher.role().catch(() => undefined);
    if (role && role[0] !== 'master' && !this.closing) {
      this.remake(`its publisher was on a Redis ${String(role[0])}`);
    }
  }

  /** Makes both connections again; their 'ready' subscribes again and sends the resyncs. */
  private remake(why: string): void {
    console.warn(`[redis-bus] connecting again: ${why}`);
    this.listenerLost = true;
    this.publishLost = true;
    for (const conn of [this.subscriber, this.publisher]) {
      if (conn.status === 'end' || conn.status === 'wait') conn.connect().catch(() => {});
      else conn.disconnect(true);
    }
  }

  /** Tells every instance, through Redis, that an event of this one was lost. */
  private async announceLoss(): Promise<void> {
    if (!this.publishLost || this.closing) return;
    this.publishLost = false;
    try {
      await this.publisher.publish(this.channel, JSON.stringify(RESYNC));
    } catch {
      this.publishLost = true; // the next 'ready' or successful publish tries again
    }
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
    if (e.session !== undefined && typeof e.session !== 'string') return undefined;
    if (e.except !== undefined && !(Array.isArray(e.except) && e.except.every(Number.isSafeInteger))) return undefined;
    return e as LiveEvent;
  } catch {
    return undefined;
  }
}
