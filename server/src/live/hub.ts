import WebSocket from 'ws';
import {
  MAX_LIVE_SUBSCRIPTIONS,
  PRIVATE_CHANNELS,
  liveEvent,
  type Channel,
  type LiveEvent,
  type Payload,
  type Topic,
} from '../../../common/live';
import type { Bus } from './bus';
import { frameStream, outgoing, parseClientFrame, type FrameStream, type Outgoing } from './protocol';

export interface HubOptions {
  bus: Bus;
  /** Ping period; a socket that has not answered the previous ping by the next one is dropped. */
  heartbeatMs: number;
  /** A socket with more than this many bytes waiting to be sent is a slow consumer and is dropped. */
  maxBufferedBytes?: number;
  maxSubscriptions?: number;
  /** Frames a socket may send per second on average... */
  framesPerSecond?: number;
  /** ...and at once, e.g. resubscribing to everything after a reconnect. */
  frameBurst?: number;
  /** Sockets one client address (`addressGroup`) may hold open on this instance; 0 or unset: no cap. */
  maxPerAddress?: number;
  /** Sockets one session may hold open on this instance; 0 or unset: no cap. */
  maxPerSession?: number;
  /**
   * Which of these sessions (SHA-256 of their tokens) still exist. A sign-out's `sessionEnded` can be lost while Redis
   * is away; at the resync that follows, the sockets of sessions gone meanwhile are closed as a sign-out closes them.
   */
  sessionsAlive?: (sessions: string[]) => Promise<ReadonlySet<string>>;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/**
 * The current value of a channel for one user (null: a visitor), sent when a socket subscribes to it so a client
 * that (re)connects starts from the current value. Undefined sends nothing.
 */
export type SnapshotSource<C extends Channel, T extends Topic<C>> = (
  userId: number | null,
) => Promise<Payload<C, T> | undefined>;

/** Where modules register the snapshots of their own channels. */
export interface LiveSnapshots {
  snapshot<C extends Channel, T extends Topic<C>>(channel: C, topic: T, source: SnapshotSource<C, T>): void;
}

/**
 * Who follows a channel on this instance: called when a signed-in user's first socket here starts following it
 * (`join`) and when their last one here stops (`leave`: unsubscribed or closed). Visitors are not reported.
 */
export interface ChannelWatcher {
  join(userId: number): void;
  leave(userId: number): void;
}

/** What a module may know of this instance's sockets, and how it reaches them without the bus. */
export interface LivePresence {
  /** Registers a watcher of a channel's signed-in followers on this instance. */
  watch(channel: string, watcher: ChannelWatcher): void;
  /** Signed-in users with at least one socket on this instance following the channel. */
  usersOn(channel: string): ReadonlySet<number>;
}

/** How events reach this instance's sockets: from the bus, and from the unit of work for `thisInstance` events. */
export interface LiveDelivery {
  deliver(event: LiveEvent): void;
}

/** Who opens a socket. */
export interface Caller {
  userId: number | null;
  /** SHA-256 of the session the socket is opened with; its sign-out closes the socket. */
  session: string | null;
  /** The client's address group (`addressGroup`), for the per-address cap. */
  address: string;
}

/** One open socket: who it belongs to and what it follows. */
interface Client extends Caller {
  socket: WebSocket;
  /** Where prepared frames are written (`frameStream`); null: through `socket.send`. */
  stream: FrameStream | null;
  channels: Set<string>;
  /** Snapshots being read for this socket. Only while one is are deliveries counted (`delivered`). */
  reading: number;
  /** Events delivered per channel while a snapshot was read, so a snapshot older than an event is not sent after it. */
  delivered: Map<string, number>;
  /** What this tick has for the socket, written together at its end (`flush`); null: nothing. */
  outbox: Outgoing | Outgoing[] | null;
  alive: boolean;
  tokens: number;
  refilledAt: number;
}

/**
 * The live connection's switchboard, one per app instance: it holds the open sockets, hears every event on the bus
 * and sends each to the sockets following its channel (only the owner's sockets when the event names a user).
 */
export class Hub implements LiveSnapshots, LivePresence, LiveDelivery {
  private readonly clients = new Set<Client>();
  private readonly byChannel = new Map<string, Set<Client>>();
  private readonly byUser = new Map<number, Set<Client>>();
  private readonly perAddress = new Map<string, number>();
  private readonly perSession = new Map<string, number>();
  /** Per channel, the signed-in users following it here and with how many sockets. */
  private readonly followers = new Map<string, Map<number, number>>();
  private readonly watchers = new Map<string, ChannelWatcher[]>();
  private readonly snapshots = new Map<string, (userId: number | null) => Promise<LiveEvent | undefined>>();
  /**
   * Snapshot reads in flight, per channel and user (null: a visitor). A socket subscribing while one is read for the
   * same user shares it (the tabs of a user reconnecting together read their balance once), unless an event of that
   * channel for that user was delivered since the read started: then it reads anew (`deliver` drops the entry).
   */
  private readonly reads = new Map<string, Map<number | null, Promise<LiveEvent | undefined>>>();
  /** The sockets with something in their outbox, written at the end of the tick. */
  private dirty: Client[] = [];
  private readonly stopListening: () => void;
  private readonly timer: NodeJS.Timeout;
  private readonly maxBuffered: number;
  private readonly maxSubscriptions: number;
  private readonly framesPerSecond: number;
  private readonly frameBurst: number;
  private closed = false;

  constructor(private readonly opts: HubOptions) {
    this.maxBuffered = opts.maxBufferedBytes ?? 1024 * 1024;
    this.maxSubscriptions = opts.maxSubscriptions ?? MAX_LIVE_SUBSCRIPTIONS;
    this.framesPerSecond = opts.framesPerSecond ?? 20;
    this.frameBurst = opts.frameBurst ?? 2 * this.maxSubscriptions + 20;
    this.stopListening = opts.bus.subscribe((event) => this.deliver(event));
    this.timer = setInterval(() => this.heartbeat(), opts.heartbeatMs);
    this.timer.unref();
  }

  /** Registers the snapshot of a channel; one per channel, by the module that owns it. */
  snapshot<C extends Channel, T extends Topic<C>>(channel: C, topic: T, source: SnapshotSource<C, T>): void {
    if (this.snapshots.has(channel)) throw new Error(`channel ${channel} already has a snapshot`);
    this.snapshots.set(channel, async (userId) => {
      const payload = await source(userId);
      return payload === undefined ? undefined : liveEvent(channel, topic, payload);
    });
  }

  watch(channel: string, watcher: ChannelWatcher): void {
    this.watchers.set(channel, [...(this.watchers.get(channel) ?? []), watcher]);
  }

  usersOn(channel: string): ReadonlySet<number> {
    return new Set(this.followers.get(channel)?.keys() ?? []);
  }

  /** Open sockets on this instance. */
  get size(): number {
    return this.clients.size;
  }

  /**
   * Why a socket of this caller would be refused now (too many open from its address or its session), or undefined
   * when it would be taken. The live route asks before the upgrade, so a refusal is a plain HTTP 429.
   */
  refusal(caller: Omit<Caller, 'userId'>): string | undefined {
    const { maxPerAddress = 0, maxPerSession = 0 } = this.opts;
    if (maxPerAddress > 0 && (this.perAddress.get(caller.address) ?? 0) >= maxPerAddress) {
      return 'Too many live connections from this address. Close another tab and try again.';
    }
    if (maxPerSession > 0 && caller.session !== null && (this.perSession.get(caller.session) ?? 0) >= maxPerSession) {
      return 'Too many live connections for this session. Close another tab and try again.';
    }
    return undefined;
  }

  add(socket: WebSocket, caller: Caller): void {
    if (this.closed) {
      socket.close(1001, 'Server shutting down');
      return;
    }
    // Upgrades that arrived together all passed the route's check before any was added: the cap holds here.
    if (this.refusal(caller)) {
      socket.close(1013, 'Too many live connections');
      return;
    }
    const client: Client = {
      ...caller,
      socket,
      stream: frameStream(socket),
      channels: new Set(),
      reading: 0,
      delivered: new Map(),
      outbox: null,
      alive: true,
      tokens: this.frameBurst,
      refilledAt: Date.now(),
    };
    this.clients.add(client);
    if (caller.userId !== null) addTo(this.byUser, caller.userId, client);
    count(this.perAddress, caller.address, 1);
    if (caller.session !== null) count(this.perSession, caller.session, 1);
    socket.on('pong', () => {
      client.alive = true;
    });
    socket.on('message', (data, isBinary) => this.onFrame(client, data, isBinary));
    socket.on('close', () => this.remove(client));
    socket.on('error', () => socket.terminate()); // 'close' follows and cleans up
  }

  /** Sends an event to every socket that should see it; `userId`, `session` and `except` are never sent. */
  deliver(event: LiveEvent): void {
    if (event.ch === 'control') {
      if (event.t === 'sessionEnded' && event.userId !== undefined) this.endSession(event.userId, event.m.session);
      if (event.t === 'resync') this.resync();
      return;
    }
    const { ch, t, m, userId, session, except } = event;
    const reads = this.reads.get(ch);
    if (reads) {
      // A read started before this event may be older than it: sockets subscribing from now on read again.
      if (userId === undefined) this.reads.delete(ch);
      else if (reads.delete(userId) && reads.size === 0) this.reads.delete(ch);
    }
    let targets: Iterable<Client>;
    if (userId !== undefined) targets = this.byUser.get(userId) ?? [];
    else if (PRIVATE_CHANNELS.has(ch))
      return; // a private event without its owner reaches nobody
    else targets = this.byChannel.get(ch) ?? [];
    // The hot path of a fan-out (docs/decisions.md "Issue 28: chat fan-out"): encoded once, and per socket only
    // the checks and a place in its outbox.
    let out: Outgoing | undefined;
    for (const client of targets) {
      if (userId !== undefined && !client.channels.has(ch)) continue; // byChannel holds only its followers
      if (session !== undefined && client.session !== session) continue;
      if (except && client.userId !== null && except.includes(client.userId)) continue;
      out ??= outgoing(JSON.stringify({ ch, t, m }));
      if (client.reading > 0) client.delivered.set(ch, (client.delivered.get(ch) ?? 0) + 1);
      this.send(client, out);
    }
  }

  /**
   * Every socket may have missed events (the bus lost Redis for a while): each is told to refetch, and the sockets of
   * sessions that ended meanwhile (their sign-out may be among the lost events) are closed.
   */
  private resync(): void {
    this.reads.clear();
    const out = outgoing(JSON.stringify(liveEvent('control', 'resync', {})));
    for (const client of this.clients) this.send(client, out);
    void this.closeEndedSessions();
  }

  private async closeEndedSessions(): Promise<void> {
    const sessions = [...this.perSession.keys()];
    if (!this.opts.sessionsAlive || sessions.length === 0) return;
    let alive: ReadonlySet<string>;
    try {
      alive = await this.opts.sessionsAlive(sessions);
    } catch (err) {
      this.opts.log.warn({ reason: (err as Error).message }, 'could not check live sessions after a resync');
      return;
    }
    this.flush(); // what was sent before goes out before the close
    for (const client of this.clients) {
      if (client.session !== null && !alive.has(client.session)) client.socket.close(4001, 'Signed out');
    }
  }

  /** A signed-out session's sockets close (4001); the client reconnects as a visitor. */
  private endSession(userId: number, session: string): void {
    this.flush();
    for (const client of this.byUser.get(userId) ?? []) {
      if (client.session === session) client.socket.close(4001, 'Signed out');
    }
  }

  /** Closes every socket with 1001 (going away), stops the heartbeat and leaves the bus. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    this.stopListening();
    this.flush();
    for (const client of this.clients) client.socket.close(1001, 'Server shutting down');
  }

  private onFrame(client: Client, data: WebSocket.RawData, isBinary: boolean): void {
    if (!this.takeToken(client)) {
      this.reply(client, 'error', { message: 'Too many messages; slow down.' });
      return;
    }
    const frame = parseClientFrame(data, isBinary);
    switch (frame.kind) {
      case 'ping':
        return this.reply(client, 'pong', {});
      case 'subscribe':
        return this.subscribe(client, frame.channel);
      case 'unsubscribe':
        if (client.channels.delete(frame.channel)) this.follow(client, frame.channel, -1);
        removeFrom(this.byChannel, frame.channel, client);
        return;
      case 'invalid':
        return this.reply(client, 'error', { message: frame.message, channel: frame.channel });
    }
  }

  private subscribe(client: Client, channel: string): void {
    if (PRIVATE_CHANNELS.has(channel) && client.userId === null) {
      return this.reply(client, 'error', { message: 'Sign in to follow this channel.', channel });
    }
    if (!client.channels.has(channel)) {
      if (client.channels.size >= this.maxSubscriptions) {
        return this.reply(client, 'error', { message: 'Too many channels on one connection.', channel });
      }
      client.channels.add(channel);
      addTo(this.byChannel, channel, client);
      this.follow(client, channel, 1);
    }
    void this.sendSnapshot(client, channel);
  }

  private async sendSnapshot(client: Client, channel: string): Promise<void> {
    const source = this.snapshots.get(channel);
    if (!source) return;
    const seen = client.delivered.get(channel) ?? 0;
    client.reading += 1;
    let snap: LiveEvent | undefined;
    let newer = false;
    try {
      snap = await this.read(channel, client.userId, source);
    } catch (err) {
      if (!this.closed) this.opts.log.error({ err, channel }, 'live snapshot failed');
    } finally {
      newer = (client.delivered.get(channel) ?? 0) !== seen;
      if (--client.reading === 0) client.delivered.clear();
    }
    // A live event that arrived meanwhile is newer than what was read; sending the read value would go back in time.
    if (!snap || newer || !client.channels.has(channel)) return;
    this.send(client, outgoing(JSON.stringify({ ch: snap.ch, t: snap.t, m: snap.m })));
  }

  /** The snapshot of a channel for a user: the read in flight for them if any may be shared (`reads`), else a new one. */
  private read(
    channel: string,
    userId: number | null,
    source: (userId: number | null) => Promise<LiveEvent | undefined>,
  ): Promise<LiveEvent | undefined> {
    let byUser = this.reads.get(channel);
    const inFlight = byUser?.get(userId);
    if (inFlight) return inFlight;
    if (!byUser) this.reads.set(channel, (byUser = new Map()));
    const read: Promise<LiveEvent | undefined> = source(userId).finally(() => {
      const current = this.reads.get(channel);
      if (current?.get(userId) !== read) return;
      current.delete(userId);
      if (current.size === 0) this.reads.delete(channel);
    });
    byUser.set(userId, read);
    return read;
  }

  private reply(client: Client, t: string, m: object): void {
    this.send(client, outgoing(JSON.stringify({ ch: 'control', t, m })));
  }

  /**
   * Puts a message in the socket's outbox. Everything a tick has for a socket (a chat message and the price it
   * moved, say, which arrive together) is written at the end of the tick in one write, in the order sent.
   */
  private send(client: Client, out: Outgoing): void {
    const box = client.outbox;
    if (box === null) {
      client.outbox = out;
      if (this.dirty.push(client) === 1) queueMicrotask(this.flush);
    } else if (Array.isArray(box)) box.push(out);
    else client.outbox = [box, out];
  }

  private readonly flush = (): void => {
    const dirty = this.dirty;
    this.dirty = [];
    // Sockets that got the same messages share one buffer of their frames.
    let parts: Outgoing[] | undefined;
    let joined: Buffer | undefined;
    for (const client of dirty) {
      const box = client.outbox;
      client.outbox = null;
      if (box === null) continue;
      const { socket, stream } = client;
      if (socket.readyState !== WebSocket.OPEN) continue;
      let frames: Buffer;
      if (!Array.isArray(box)) frames = box.frame;
      else {
        if (!parts || !sameParts(parts, box)) {
          parts = box;
          joined = Buffer.concat(box.map((o) => o.frame));
        }
        frames = joined!;
      }
      const buffered = stream ? stream.writableLength : socket.bufferedAmount;
      if (buffered + frames.length > this.maxBuffered) {
        // Buffering without bound for a reader that does not keep up would let one client grow our memory.
        this.opts.log.warn({ userId: client.userId, buffered }, 'live socket too slow, dropped');
        socket.terminate();
        continue;
      }
      if (stream) {
        if (stream.writable) stream.write(frames);
      } else if (Array.isArray(box)) for (const o of box) socket.send(o.payload, { binary: false });
      else socket.send(box.payload, { binary: false });
    }
  };

  private heartbeat(): void {
    for (const client of this.clients) {
      if (!client.alive) {
        client.socket.terminate();
        continue;
      }
      client.alive = false;
      if (client.socket.readyState === WebSocket.OPEN) client.socket.ping();
    }
  }

  private takeToken(client: Client): boolean {
    const now = Date.now();
    client.tokens = Math.min(
      this.frameBurst,
      client.tokens + ((now - client.refilledAt) / 1000) * this.framesPerSecond,
    );
    client.refilledAt = now;
    if (client.tokens < 1) return false;
    client.tokens -= 1;
    return true;
  }

  private remove(client: Client): void {
    if (!this.clients.delete(client)) return;
    for (const channel of client.channels) {
      removeFrom(this.byChannel, channel, client);
      this.follow(client, channel, -1);
    }
    if (client.userId !== null) removeFrom(this.byUser, client.userId, client);
    count(this.perAddress, client.address, -1);
    if (client.session !== null) count(this.perSession, client.session, -1);
  }

  /** Counts a signed-in socket in or out of a channel's followers, telling the watchers when the user comes or goes. */
  private follow(client: Client, channel: string, by: 1 | -1): void {
    if (client.userId === null) return;
    let users = this.followers.get(channel);
    if (!users) this.followers.set(channel, (users = new Map()));
    const before = users.get(client.userId) ?? 0;
    count(users, client.userId, by);
    if (users.size === 0) this.followers.delete(channel);
    const watchers = this.watchers.get(channel);
    if (!watchers) return;
    for (const w of watchers) {
      try {
        if (before === 0 && by === 1) w.join(client.userId);
        if (before === 1 && by === -1) w.leave(client.userId);
      } catch (err) {
        this.opts.log.error({ err, channel }, 'live channel watcher failed');
      }
    }
  }
}

function sameParts(a: readonly Outgoing[], b: readonly Outgoing[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function count<K>(counts: Map<K, number>, key: K, by: 1 | -1): void {
  const n = (counts.get(key) ?? 0) + by;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
}

function addTo<K>(index: Map<K, Set<Client>>, key: K, client: Client): void {
  let set = index.get(key);
  if (!set) index.set(key, (set = new Set()));
  set.add(client);
}

function removeFrom<K>(index: Map<K, Set<Client>>, key: K, client: Client): void {
  const set = index.get(key);
  if (!set) return;
  set.delete(client);
  if (set.size === 0) index.delete(key);
}
