import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase, missingRealServices, realPostgresUrl } from './test/databases';
import { freePort, startServer, waitForHealth, type ServerProcess } from './test/server-process';
import { startTcpProxy } from './test/tcp-proxy';
import { startWithRetry, ServiceUnreachableError } from './start-up';

/**
 * Start-up with PostgreSQL or Redis out of reach (issue 9, item 14): one clear line per try, never a stack trace,
 * retries with a growing pause, then exit code 1, or a normal start once the service is there.
 */

const STACK_LINE = /\n\s+at /;
let dataDir: string;
const servers: ServerProcess[] = [];

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wall-startup-'));
});
afterEach(() => {
  for (const s of servers.splice(0)) if (s.child.exitCode === null) s.child.kill('SIGKILL');
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function start(env: Record<string, string>, port: number | string = 0): ServerProcess {
  const server = startServer(dataDir, port, env);
  servers.push(server);
  return server;
}

const lines = (s: ServerProcess) => s.output().trim().split('\n');

describe('start-up with a service out of reach', () => {
  it('PostgreSQL: one line per try naming it, a retry, then exit code 1 without a stack trace', async () => {
    const port = await freePort(); // nothing listens there
    const url = `postgres://wall:secret@127.0.0.1:${port}/wall`;
    const server = start({ DATABASE_URL: url, STARTUP_RETRY_MS: '2500' });
    expect(await server.exited).toBe(1);
    const out = lines(server);
    expect(server.output()).not.toMatch(STACK_LINE);
    expect(out.length).toBeGreaterThanOrEqual(2); // at least one retry, then the verdict
    for (const line of out) {
      expect(line).toContain(
        `Cannot reach PostgreSQL at postgres://wall:***@127.0.0.1:${port}/wall: connect ECONNREFUSED`,
      );
    }
    expect(out[0]).toMatch(/Trying again in 1 s\.$/);
    expect(out.at(-1)).toMatch(/Gave up after [\d.]+ s \(STARTUP_RETRY_MS\)\.$/);
    expect(server.output()).not.toContain('secret');
  });

  it('Redis: the same, and the embedded database directory is left free', async () => {
    const port = await freePort();
    const server = start({ REDIS_URL: `redis://127.0.0.1:${port}`, STARTUP_RETRY_MS: '0' });
    expect(await server.exited).toBe(1);
    expect(server.output()).not.toMatch(STACK_LINE);
    expect(lines(server)).toEqual([
      `Cannot reach Redis at redis://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}.`,
    ]);
    expect(fs.existsSync(path.join(dataDir, '.lock'))).toBe(false);
  });

  it('Redis through Sentinel: one line naming the group and the Sentinels, then exit code 1', async () => {
    const ports = [await freePort(), await freePort()];
    const sentinels = ports.map((p) => `127.0.0.1:${p}`).join(',');
    const server = start({ REDIS_SENTINELS: sentinels, REDIS_SENTINEL_NAME: 'wall', STARTUP_RETRY_MS: '0' });
    expect(await server.exited).toBe(1);
    expect(server.output()).not.toMatch(STACK_LINE);
    expect(lines(server)).toEqual([
      `Cannot reach Redis at master group "wall" through Sentinels ${sentinels}: no Sentinel answered.`,
    ]);
  });
});

const skip = missingRealServices({ postgres: true });

describe.skipIf(skip)('start-up before PostgreSQL is there', () => {
  it('keeps trying, then serves once PostgreSQL answers', async () => {
    const database = await freshPostgresDatabase(realPostgresUrl!);
    const real = new URL(database.url);
    const proxy = await startTcpProxy({ host: real.hostname, port: Number(real.port || 5432) });
    try {
      await proxy.cut(); // PostgreSQL is "not up yet": its port refuses connections
      const port = await freePort();
      const server = start({ DATABASE_URL: proxy.urlFor(database.url), STARTUP_RETRY_MS: '120000' }, port);
      for (const deadline = Date.now() + 60_000; !server.output().includes('Trying again');) {
        if (Date.now() > deadline || server.child.exitCode !== null) throw new Error(server.output());
        await new Promise((r) => setTimeout(r, 100));
      }
      await proxy.restore();
      await waitForHealth(`http://127.0.0.1:${port}`, server);
      expect(server.output()).not.toMatch(STACK_LINE);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    } finally {
      await proxy.close();
      await database.drop();
    }
  });
});

describe('startWithRetry', () => {
  const unreachable = () => ServiceUnreachableError.of('Redis', 'redis://h:1', new Error('connect ECONNREFUSED'));

  it('doubles its pause up to the ceiling and stops retrying once the time is spent', async () => {
    const pauses: number[] = [];
    const said: string[] = [];
    let now = 0;
    const realNow = Date.now;
    Date.now = () => now;
    try {
      const attempt = startWithRetry(() => Promise.reject(unreachable()), {
        retryForMs: 20_000,
        say: (l) => said.push(l),
        maxPauseMs: 5_000,
        sleep: async (ms) => {
          pauses.push(ms);
          now += ms;
        },
      });
      await expect(attempt).rejects.toThrow(/Gave up after 20 s/);
    } finally {
      Date.now = realNow;
    }
    expect(pauses).toEqual([1000, 2000, 4000, 5000, 5000, 3000]);
    expect(said[0]).toBe('Cannot reach Redis at redis://h:1: connect ECONNREFUSED. Trying again in 1 s.');
  });

  it('does not retry other failures', async () => {
    let tries = 0;
    const attempt = startWithRetry(
      async () => {
        tries++;
        throw new Error('a bug');
      },
      { retryForMs: 10_000, say: () => {}, sleep: async () => {} },
    );
    await expect(attempt).rejects.toThrow('a bug');
    expect(tries).toBe(1);
  });
});
