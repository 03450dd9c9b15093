import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { LIVE_PATH } from '../../../common/live';
import { openDatabase } from '../db/connection';
import { freePort, startServer, waitForHealth, type ServerProcess as Server } from '../test/server-process';

/**
 * The real server as an operator runs it (`node --import tsx server/src/main.ts`), on the embedded database in a temporary
 * DATA_DIR: it refuses a second process on the same directory, and on SIGTERM finishes what it has started, exits 0
 * and releases the directory.
 */

type LogLine = { msg: string; reqId?: string };

/** The server's JSON log lines about the burst's requests (a websocket upgrade never logs a completion). */
function burstLog(server: Server): LogLine[] {
  return server
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{') && l.endsWith('}'))
    .map((l) => JSON.parse(l) as LogLine)
    .filter((l) => l.reqId?.startsWith('burst-'));
}

async function until(condition: () => boolean, ms = 20_000): Promise<void> {
  for (const deadline = Date.now() + ms; !condition();) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Requests the server has begun and not yet finished. */
function unfinished(log: LogLine[]): string[] {
  const done = new Set(log.filter((l) => l.msg === 'request completed').map((l) => l.reqId));
  return log.filter((l) => l.msg === 'incoming request' && !done.has(l.reqId)).map((l) => l.reqId!);
}

describe('the server process', () => {
  let dataDir: string;
  let port: number;
  let base: string;
  let server: Server;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wall-ops-'));
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = startServer(dataDir, port);
    await waitForHealth(base, server);
  }); // starting the embedded database takes long on a loaded 2-core machine: vitest.config.ts gives hooks time
  afterAll(() => {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses to start a second server on a data directory in use, with a clear message and exit code 1', async () => {
    const second = startServer(dataDir, await freePort());
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`The embedded database in ${dataDir} is in use by another process`);
    expect(second.output()).toContain('Stop that process first');
    expect(second.output()).not.toMatch(/\n\s+at /); // a message, not a stack trace
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
  });

  it('refuses a malformed setting with one clear line and exit code 1', async () => {
    const bad = startServer(dataDir, 'eighty');
    expect(await bad.exited).toBe(1);
    expect(bad.output().trim()).toBe('PORT must be a whole number, got "eighty"');
  });

  it('on SIGTERM finishes the requests it is serving, closes live sockets, exits 0 and frees the data directory', async () => {
    // An open live socket must not hold the shutdown up: it is told the server is going away (1001).
    const socket = new WebSocket(`ws://127.0.0.1:${port}${LIVE_PATH}`, { headers: { origin: base } });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const socketClosed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));

    // A request in flight at the signal: its body is still arriving, over a keep-alive connection.
    const slow = net.connect(port, '127.0.0.1');
    let slowAnswer = '';
    slow.on('data', (d) => (slowAnswer += d));
    const slowClosed = new Promise<void>((resolve) => slow.once('close', () => resolve()));
    const body = JSON.stringify({ note: 'a body that takes its time' });
    slow.write(
      `POST /api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: keep-alive\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nx-request-id: slow-1\r\n\r\n` +
        body.slice(0, 10),
    );
    await until(() => server.output().includes('"reqId":"slow-1"'));

    // And a burst of requests racing the signal.
    const burst = Array.from({ length: 100 }, (_, i) =>
      fetch(`${base}/api/health`, { headers: { 'x-request-id': `burst-${i}` } }).then(
        async (res) => ({ id: `burst-${i}`, status: res.status, body: await res.text() }),
        (err: Error) => ({ id: `burst-${i}`, status: 0, body: String(err.cause ?? err) }),
      ),
    );
    server.child.kill('SIGTERM');
    await until(() => server.output().includes('shutting down'));
    slow.write(body.slice(10));

    const results = await Promise.all(burst);
    expect(await server.exited).toBe(0);
    await slowClosed;
    expect(await socketClosed).toBe(1001);

    // The slow request got its whole answer (POST on a GET route: 404, with its JSON body), and the server closed
    // that keep-alive connection after it instead of waiting on it.
    expect(slowAnswer).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/);
    expect(slowAnswer.toLowerCase()).toContain('connection: close');
    expect(slowAnswer).toContain('"message":"Route POST:/api/health not found"');

    // Every request of the burst the server began, it finished; the others were turned away whole (503) or found
    // the door shut (refused or reset before the server read them), never an answer cut off halfway.
    const log = burstLog(server);
    expect(unfinished(log)).toEqual([]);
    const begun = new Set(log.filter((l) => l.msg === 'incoming request').map((l) => l.reqId));
    for (const r of results) {
      if (r.status === 0) {
        expect(begun.has(r.id), `${r.id} was begun but got ${r.body}`).toBe(false);
        expect(r.body).toMatch(/ECONNRESET|ECONNREFUSED|other side closed/);
      } else {
        expect([200, 503], r.body).toContain(r.status);
      }
    }

    // The lock is gone: the directory opens at once.
    const reopened = await openDatabase({ dataDir });
    await reopened.close();
  });
});
