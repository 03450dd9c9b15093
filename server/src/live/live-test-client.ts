import WebSocket from 'ws';
import { LIVE_PATH } from '../../../common/live';

/** A frame as the client sees it. */
export interface Frame {
  ch: string;
  t: string;
  m: Record<string, unknown>;
  [extra: string]: unknown;
}

export interface LiveClientOptions {
  cookie?: string;
  origin?: string;
  /** false: the client never answers pings, like a peer that vanished. */
  autoPong?: boolean;
  /** Connect from this local address (any of 127.0.0.0/8 reaches a server on 127.0.0.1), like another machine. */
  localAddress?: string;
}

/** An upgrade the server answered with an HTTP status instead of a socket. */
export interface Refusal extends Error {
  status: number;
  body: string;
}

/**
 * A test's browser tab on the live socket: it records every frame and lets a test wait for one or for silence.
 */
export class LiveTestClient {
  readonly frames: Frame[] = [];
  closeCode: number | undefined;
  private waiters: (() => void)[] = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.frames.push(JSON.parse(data.toString()) as Frame);
      this.wake();
    });
    socket.on('close', (code) => {
      this.closeCode = code;
      this.wake();
    });
  }

  /**
   * Opens a socket to a listening app at `base` (http://host:port); when refused, rejects with a `Refusal` whose
   * message starts with `refused with <status>`.
   */
  static open(base: string, opts: LiveClientOptions = {}): Promise<LiveTestClient> {
    const url = `${base.replace(/^http/, 'ws')}${LIVE_PATH}`;
    const socket = new WebSocket(url, {
      headers: opts.cookie ? { cookie: opts.cookie } : {},
      origin: opts.origin ?? base,
      autoPong: opts.autoPong ?? true,
      localAddress: opts.localAddress,
    });
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new LiveTestClient(socket)));
      socket.once('unexpected-response', (_req, res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('close', () => {
          const status = res.statusCode ?? 0;
          reject(Object.assign(new Error(`refused with ${status}: ${body}`), { status, body }) as Refusal);
        });
      });
      socket.once('error', reject);
    });
  }

  send(frame: unknown): void {
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  subscribe(channel: string): void {
    this.send({ ch: 'control', t: 'subscribe', m: { channel } });
  }

  unsubscribe(channel: string): void {
    this.send({ ch: 'control', t: 'unsubscribe', m: { channel } });
  }

  /** The first frame (from `from` on) that matches, waiting up to `ms` for it. */
  async next(match: (f: Frame) => boolean, ms = 5000, from = 0): Promise<Frame> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.frames.slice(from).find(match);
      if (found) return found;
      if (Date.now() >= deadline) {
        const last = this.frames.slice(-3).map((f) => JSON.stringify(f).slice(0, 200));
        throw new Error(
          `no matching frame within ${ms} ms (closed: ${this.closeCode}); last frames: ${last.join(' ')}`,
        );
      }
      await this.wait(deadline - Date.now());
    }
  }

  /** Frames on one channel. */
  on(ch: string): Frame[] {
    return this.frames.filter((f) => f.ch === ch);
  }

  /** Resolves when the server has closed the socket, with its close code. */
  async closed(ms = 5000): Promise<number> {
    const deadline = Date.now() + ms;
    while (this.closeCode === undefined) {
      if (Date.now() >= deadline) throw new Error(`socket still open after ${ms} ms`);
      await this.wait(deadline - Date.now());
    }
    return this.closeCode;
  }

  close(): void {
    this.socket.close();
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

/** A round trip through the server: once the pong is back, every frame sent before it has been handled. */
export async function settle(client: LiveTestClient): Promise<void> {
  const from = client.frames.length;
  client.send({ ch: 'control', t: 'ping', m: {} });
  await client.next((f) => f.ch === 'control' && f.t === 'pong', 5000, from);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
