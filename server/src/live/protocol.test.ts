import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import * as ws from 'ws';
import WebSocket, { WebSocketServer } from 'ws';
import { frameStream, outgoing } from './protocol';

/** ws's own framing (`WebSocket.Sender.frame`, not in its typings): what `outgoing` must build, byte for byte. */
const wsFrame = (payload: Buffer): Buffer => {
  const { Sender } = ws as unknown as {
    Sender: { frame(data: Buffer, opts: object): Buffer[] };
  };
  return Buffer.concat(Sender.frame(payload, { fin: true, opcode: 1, mask: false, readOnly: true, rsv1: false }));
};

describe('a prepared text frame', () => {
  it.each([0, 1, 125, 126, 127, 65_535, 65_536, 200_000])('of %i bytes is framed as ws frames it', (n) => {
    const text = 'x'.repeat(n);
    const out = outgoing(text);
    expect(out.payload.toString('utf8')).toBe(text);
    expect(out.frame.equals(wsFrame(Buffer.from(text)))).toBe(true);
  });

  it('counts bytes, not characters', () => {
    const out = outgoing('{"m":"ünïcødé 🎉"}');
    expect(out.frame[1]).toBe(Buffer.byteLength('{"m":"ünïcødé 🎉"}'));
    expect(out.frame.equals(wsFrame(out.payload))).toBe(true);
  });
});

describe('writing prepared frames under a ws socket', () => {
  const servers: WebSocketServer[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) {
      for (const c of s.clients) c.terminate();
      await new Promise((r) => s.close(r));
    }
  });

  /** A server as the app runs it (permessage-deflate off unless asked), its one client, and the server's socket. */
  async function pair(perMessageDeflate = false) {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate });
    servers.push(wss);
    await once(wss, 'listening');
    const accepted = once(wss, 'connection') as Promise<[WebSocket]>;
    const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
    const received: { text: string; binary: boolean }[] = [];
    client.on('message', (data, binary) => received.push({ text: data.toString(), binary }));
    await once(client, 'open');
    const [server] = await accepted;
    return { server, client, received };
  }

  it('reaches the client as text messages, in order with what ws itself sends', async () => {
    const { server, client, received } = await pair();
    const stream = frameStream(server);
    expect(stream).not.toBeNull();
    const pong = once(client, 'ping');
    stream!.write(outgoing('one').frame);
    server.send('two');
    server.ping();
    stream!.write(Buffer.concat([outgoing('three').frame, outgoing('x'.repeat(70_000)).frame]));
    server.send(Buffer.from('five'), { binary: false });
    await pong;
    while (received.length < 5) await new Promise((r) => setTimeout(r, 10));
    expect(received.map((r) => r.text.slice(0, 5))).toEqual(['one', 'two', 'three', 'xxxxx', 'five']);
    expect(received[3]!.text).toHaveLength(70_000);
    expect(received.every((r) => !r.binary)).toBe(true);
    expect(stream!.writableLength).toBeGreaterThanOrEqual(0);
    client.close();
  });

  it('is not used when an extension was negotiated (ws may then hold messages back while it compresses)', async () => {
    const { server, client } = await pair(true);
    expect(server.extensions).toContain('permessage-deflate');
    expect(frameStream(server)).toBeNull();
    client.close();
  });
});
