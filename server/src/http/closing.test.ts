import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../test/harness';
import { parseAnswer } from '../test/raw-http';

/**
 * A request that arrives once shutdown began (its headers begun before, finished after) is answered with the
 * contract's 503 {message} and Retry-After, on every route, health included (issue 22, item 22): Fastify's own
 * closing answer was {error, message, statusCode}, a shape the document does not declare.
 */
describe('requests during shutdown', () => {
  it('get the contract 503 {message} with Retry-After', async () => {
    const t = await startTestApp();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    t.app.get('/test/slow', { schema: { hide: true }, config: { auth: 'public' } }, async () => {
      started();
      await held;
      return { done: true };
    });
    const port = Number(new URL(await t.app.listen({ port: 0, host: '127.0.0.1' })).port);

    // One connection keeps the server busy; two others have begun their request (so they are not idle) when
    // shutdown begins, and finish it after.
    const head = 'Host: localhost:3000\r\n';
    const busy = open(port);
    busy.socket.write(`GET /test/slow HTTP/1.1\r\n${head}\r\n`);
    await running;
    const late = [open(port), open(port)];
    late[0]!.socket.write(`GET /api/health HTTP/1.1\r\n${head}`);
    late[1]!.socket.write(`POST /api/open/lootbox HTTP/1.1\r\n${head}Content-Type: application/json\r\n`);
    await new Promise((r) => setTimeout(r, 100));

    const closing = t.close();
    await new Promise((r) => setTimeout(r, 200));
    late[0]!.socket.write('\r\n');
    late[1]!.socket.write('Content-Length: 2\r\n\r\n{}');
    for (const conn of late) await conn.ended;
    release();
    await closing;
    await busy.ended;

    expect(parseAnswer(busy.data()).status).toBe(200);
    for (const conn of late) {
      const answer = parseAnswer(conn.data());
      expect(answer.status, conn.data()).toBe(503);
      expect(JSON.parse(answer.body)).toEqual({ message: expect.stringMatching(/try again/i) });
      expect(answer.headers['retry-after']).toBe('2');
    }
  });
});

function open(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let data = '';
  socket.on('data', (d) => (data += d.toString('latin1')));
  socket.on('error', () => {});
  const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  return { socket, data: () => data, ended };
}
