import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

/** The real server as an operator runs it (`node --import tsx server/src/main.ts`), for tests of the process. */
export const repoRoot = path.resolve(import.meta.dirname, '../../..');

export interface ServerProcess {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr together. */
  output: () => string;
  exited: Promise<number | null>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts the server on `port` with DATA_DIR `dataDir`, on the embedded database unless `env` says otherwise (the
 * suite's DATABASE_URL and REDIS_URL are not passed on).
 */
export function startServer(dataDir: string, port: number | string, env: Record<string, string> = {}): ServerProcess {
  const { DATABASE_URL: _db, REDIS_URL: _redis, ...inherited } = process.env;
  // Not through the tsx CLI: it relays SIGTERM to its child and SIGKILLs it when the child, busy serving, does not
  // acknowledge within 30 ms, which defeats a graceful shutdown under load.
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...inherited,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: '0',
      SERVE_WEB: '0',
      LOG_LEVEL: 'info',
      ...env,
    },
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Waits until the server answers its health check: up to 100 s, 200 s under CI's parallel jobs (test/timeouts.ts). */
export async function waitForHealth(
  base: string,
  server: ServerProcess,
  ms = process.env.CI ? 200_000 : 100_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`server exited early:\n${server.output()}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not come up:\n${server.output()}`);
}
