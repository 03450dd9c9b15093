import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startServer, waitForHealth, type ServerProcess } from '../test/server-process';

/**
 * The server on the embedded database, killed with `kill -9` (issue 9, item 12): its lock on DATA_DIR is left
 * behind, and the next start must take it over at once instead of refusing until the lock goes stale.
 */
describe('restarting after kill -9 on the embedded database', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wall-crash-'));
  const servers: ServerProcess[] = [];
  afterAll(() => {
    for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function up(): Promise<{ server: ServerProcess; base: string }> {
    const port = await freePort();
    const server = startServer(dataDir, port);
    servers.push(server);
    const base = `http://127.0.0.1:${port}`;
    await waitForHealth(base, server);
    return { server, base };
  }

  // Three starts of the server, each well over a minute beside other CI jobs.
  it(
    'starts again at once, and a live server still keeps the directory to itself',
    { timeout: process.env.CI ? 600_000 : 240_000 },
    async () => {
      const first = await up();
      first.server.child.kill('SIGKILL');
      await first.server.exited;
      expect(fs.existsSync(path.join(dataDir, '.lock'))).toBe(true); // left behind by the dead process

      const second = await up();
      expect(second.server.output()).not.toContain('in use by another process');

      const third = startServer(dataDir, await freePort());
      servers.push(third);
      expect(await third.exited).toBe(1);
      expect(third.output()).toContain('in use by another process');
      expect((await fetch(`${second.base}/api/health`)).status).toBe(200);
    },
  );
});
