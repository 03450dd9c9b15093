import { useEffect } from 'react';
import { useLatest } from '../hooks/useLatest';
import { LIVE_PATH, type Channel, type Envelope } from '../../../common/live';
import { reconnectDelayMs } from '../../../common/reconnect';

/** What a view hears on channel C: only that channel's envelopes, typed from common/live.ts. */
export type LiveHandler<C extends Channel = Channel> = (message: Envelope<C>) => void;
/** A handler of some channel: which one is known only from the key it is filed under. */
type FiledHandler = (message: never) => void;

// WebSocket readyState values (not read from the global, which Node test runs may lack).
const OPEN = 1;
const CLOSING = 2;
const CLOSED = 3;

/**
 * One websocket for the whole page. Views subscribe to channels while mounted; the client keeps one server-side
 * subscription per channel, resubscribes after a reconnect, and unsubscribes from anything it did not ask for. A
 * dropped socket is reopened after a random wait that grows with each failed try (common/reconnect.ts), so the
 * clients of an instance that died do not all come back at once.
 */
export class LiveClient {
  private socket: WebSocket | undefined;
  private readonly handlers = new Map<Channel, Set<FiledHandler>>();
  private retry: ReturnType<typeof setTimeout> | undefined;
  /** Tries in a row that did not open, since the last socket that did. */
  private failures = 0;
  private everOpened = false;
  private readonly reconnectListeners = new Set<() => void>();

  constructor(
    private readonly url: () => string,
    private readonly open: (url: string) => WebSocket = (u) => new WebSocket(u),
    private readonly random: () => number = Math.random,
  ) {}

  subscribe<C extends Channel>(channel: C, handler: LiveHandler<C>): () => void {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      this.control('subscribe', channel);
    }
    set.add(handler);
    this.ensureRunning();
    return () => {
      set.delete(handler);
      if (set.size === 0 && this.handlers.get(channel) === set) {
        this.handlers.delete(channel);
        this.control('unsubscribe', channel);
      }
    };
  }

  /**
   * Called after a reconnect, and when the server says events may have been lost (`control`/`resync`), so views
   * can refetch what they may have missed.
   */
  onReconnect(fn: () => void): () => void {
    this.reconnectListeners.add(fn);
    return () => this.reconnectListeners.delete(fn);
  }

  close(): void {
    clearTimeout(this.retry);
    this.retry = undefined;
    const socket = this.socket;
    this.socket = undefined; // its close is not a drop to recover from
    socket?.close();
  }

  private ensureRunning(): void {
    if (this.retry === undefined) this.check();
  }

  private check(): void {
    if (this.handlers.size === 0) return;
    const state = this.socket?.readyState;
    if (state === undefined || state === CLOSING || state === CLOSED) this.connect();
  }

  /** The next try, after a random wait below a ceiling that doubles with each failure (common/reconnect.ts). */
  private reconnectLater(): void {
    if (this.retry !== undefined) return;
    const wait = reconnectDelayMs(this.failures, this.random());
    this.failures += 1;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.check();
    }, wait);
  }

  private connect(): void {
    let socket: WebSocket;
    try {
      socket = this.open(this.url());
    } catch {
      this.reconnectLater();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.failures = 0;
      for (const channel of this.handlers.keys()) this.control('subscribe', channel);
      if (this.everOpened) this.missedEvents();
      this.everOpened = true;
    };
    socket.onmessage = (event) => this.receive(event.data);
    socket.onerror = () => {}; // onclose follows
    socket.onclose = () => {
      if (this.socket === socket) this.reconnectLater();
    };
  }

  private receive(data: unknown): void {
    if (typeof data !== 'string') return;
    let message: Envelope;
    try {
      message = JSON.parse(data) as Envelope;
    } catch {
      return;
    }
    if (!message || typeof message.ch !== 'string') return;
    if (message.ch === 'control') {
      // The socket stayed open, but its server lost events meant for it: the same as a reconnect for the views.
      if (message.t === 'resync') this.missedEvents();
      return;
    }
    const set = this.handlers.get(message.ch);
    if (!set) {
      this.control('unsubscribe', message.ch);
      return;
    }
    // Filed under the frame's channel, so each takes this frame (the server sends each channel only its own topics).
    set.forEach((h) => (h as LiveHandler)(message));
  }

  private missedEvents(): void {
    this.reconnectListeners.forEach((fn) => fn());
  }

  private control(topic: 'subscribe' | 'unsubscribe', channel: string): void {
    if (this.socket?.readyState !== OPEN) return; // onopen sends the subscriptions
    this.socket.send(JSON.stringify({ ch: 'control', t: topic, m: { channel } }));
  }
}

export const live = new LiveClient(() => {
  const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${window.location.host}${LIVE_PATH}`;
});

/** Subscribes while the calling view is mounted (and `enabled`); the handler may change between renders. */
export function useLiveChannel<C extends Channel>(channel: C, handler: LiveHandler<C>, enabled = true): void {
  const latest = useLatest(handler);
  useEffect(() => {
    if (!enabled) return;
    return live.subscribe(channel, (m) => latest.current(m));
  }, [channel, enabled, latest]);
}
