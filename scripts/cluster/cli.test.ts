import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, repoRoot } from '../../server/src/test/server-process';
import { processAlive } from './ports';
import type { ClusterDescription } from './topology';

/** `npm run cluster` as an operator runs it: the command, its `CLUSTER {json}` line and file, Ctrl-C. */
describe('npm run cluster', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wall-cluster-cli-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('prints CLUSTER {json} once healthy, answers /api/health 200 through HAProxy, and stops everything on SIGINT', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/cluster/run.ts'], {
      cwd: repoRoot,
      env: { ...process.env, PORT: String(port), CLUSTER_DIR: dir, CLUSTER_INSTANCES: '1', SERVE_WEB: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const line = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += d;
        const found = out.split('\n').find((l) => l.startsWith('CLUSTER '));
        if (found && out.includes(`${found}\n`)) resolve(found);
      });
      void exited.then((code) => reject(new Error(`npm run cluster exited with ${code}:\n${err}`)));
    });

    const described = JSON.parse(line.slice('CLUSTER '.length)) as ClusterDescription;
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'cluster.json'), 'utf8'))).toEqual(described);
    expect(described.url).toBe(`http://127.0.0.1:${port}`);
    expect(described.components.map((c) => c.name)).toEqual([
      'haproxy',
      'app-1',
      'pgbouncer',
      'postgres-1',
      'postgres-2',
      'redis-1',
      's3',
    ]);
    expect(described.env.DATABASE_DIRECT_URL).toBeTruthy();
    expect((await fetch(`${described.url}/api/health`)).status).toBe(200);
    const pids = described.components.map((c) => c.pid!);
    expect(pids.every(processAlive)).toBe(true);

    child.kill('SIGINT');
    expect(await exited).toBe(0);
    const left = () => described.components.filter((c) => processAlive(c.pid!)).map((c) => `${c.name} (${c.pid})`);
    for (let i = 0; i < 50 && left().length > 0; i++) await new Promise((r) => setTimeout(r, 200));
    expect(left()).toEqual([]);
  });
});
