import type { RawData, WebSocket } from 'ws';
import { CHANNEL_NAME } from '../../../common/live';

/** What a client may say on the live socket, already checked. Anything else is `invalid`, answered, not fatal. */
export type ClientFrame =
  | { kind: 'subscribe'; channel: string }
  | { kind: 'unsubscribe'; channel: string }
  | { kind: 'ping' }
  | { kind: 'invalid'; message: string; channel?: string };

const invalid = (message: string, channel?: string): ClientFrame => ({ kind: 'invalid', message, channel });

export function parseClientFrame(data: RawData, isBinary: boolean): ClientFrame {
  if (isBinary) return invalid('Frames are JSON text.');
  let frame: unknown;
  try {
    frame = JSON.parse(rawText(data));
  } catch {
    return invalid('Frames are JSON text.');
  }
  if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) {
    return invalid('A frame is an object {ch, t, m}.');
  }
  const { ch, t, m } = frame as { ch?: unknown; t?: unknown; m?: unknown };
  if (ch !== 'control') return invalid('Clients speak only on the control channel.');
  if (t === 'ping') return { kind: 'ping' };
  if (t !== 'subscribe' && t !== 'unsubscribe') return invalid('Control topics are subscribe and unsubscribe.');
  const channel = typeof m === 'object' && m !== null ? (m as { channel?: unknown }).channel : undefined;
  if (typeof channel !== 'string' || !CHANNEL_NAME.test(channel) || channel === 'control') {
    return invalid('Name a channel: {channel}.', typeof channel === 'string' ? channel.slice(0, 64) : undefined);
  }
  return { kind: t, channel };
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

/**
 * A text message the hub sends, encoded once for all the sockets it goes to (docs/decisions.md "Issue 28: chat
 * fan-out"): its UTF-8 bytes and the whole unmasked frame (RFC 6455 §5.2: FIN and the text opcode, the length, the
 * payload), so that a socket's write is one buffer shared by every socket, instead of `ws` converting the string,
 * counting its bytes and building a header for each one.
 */
export interface Outgoing {
  payload: Buffer;
  frame: Buffer;
}

export function outgoing(text: string): Outgoing {
  const payload = Buffer.from(text, 'utf8');
  const n = payload.length;
  const headerLength = n < 126 ? 2 : n < 65536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + n);
  frame[0] = 0x81; // FIN, text
  if (n < 126) {
    frame[1] = n;
  } else if (n < 65536) {
    frame[1] = 126;
    frame.writeUInt16BE(n, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(Math.floor(n / 2 ** 32), 2);
    frame.writeUInt32BE(n >>> 0, 6);
  }
  payload.copy(frame, headerLength);
  return { payload, frame };
}

/** The stream under a server socket of `ws`, to which whole frames may be written. */
export interface FrameStream {
  write(data: Buffer): boolean;
  readonly writable: boolean;
  readonly writableLength: number;
}

/**
 * The TCP stream under an open `ws` socket when a prepared frame may be written straight to it, else null (then
 * `socket.send` is used). Safe only without extensions: with none negotiated (permessage-deflate is off on the
 * server), `ws`'s sender never holds a message back (it queues only while compressing or reading a Blob, which the
 * hub never sends), so its own frames (pings, pongs, close) and ours reach the stream in the order they are written.
 * The `_socket` property is `ws`'s own, not its typed API: protocol.test.ts holds this to the version installed.
 */
export function frameStream(socket: WebSocket): FrameStream | null {
  if (socket.extensions !== '') return null;
  const stream = (socket as unknown as { _socket?: Partial<FrameStream> })._socket;
  if (!stream || typeof stream.write !== 'function' || typeof stream.writableLength !== 'number') return null;
  return stream as FrameStream;
}
