import type { RawData } from 'ws';
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
