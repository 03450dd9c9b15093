import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../test/server-process';
import { DataDirLockedError, LOCK_FILE, lockDataDir, STALE_MS } from './data-dir-lock';

/** The embedded database's directory lock (issue 9, item 12): a dead owner's lock goes at once, a live one stays. */
let dir: string;
let lockPath: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wall-lock-'));
  lockPath = path.join(dir, LOCK_FILE);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const leaveLock = (owner: { pid: number; host?: string }) =>
  fs.writeFileSync(lockPath, JSON.stringify({ host: os.hostname(), nonce: 'left-behind', ...owner }));
const age = (p: string, ms: number) => fs.utimesSync(p, new Date(Date.now() - ms), new Date(Date.now() - ms));

/** The pid of a process that has exited (and been reaped). */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

describe('the data directory lock', () => {
  it('refuses a second holder in the same process, and is free again once released', async () => {
    const release = await lockDataDir(dir);
    await expect(lockDataDir(dir)).rejects.toBeInstanceOf(DataDirLockedError);
    await release();
    expect(fs.existsSync(lockPath)).toBe(false);
    await (
      await lockDataDir(dir)
    )();
  });

  it('takes over at once a lock whose owner is dead (the server was killed with kill -9)', async () => {
    leaveLock({ pid: deadPid() });
    const release = await lockDataDir(dir);
    expect(JSON.parse(fs.readFileSync(lockPath, 'utf8')).pid).toBe(process.pid);
    await release();
  });

  it('keeps refusing while a live process holds it', async () => {
    const owner = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      leaveLock({ pid: owner.pid! });
      await expect(lockDataDir(dir)).rejects.toThrow(/in use by another process/);
    } finally {
      owner.kill('SIGKILL');
    }
  });

  it('takes over a lock naming its own pid that it does not hold: a previous process with the same pid', async () => {
    leaveLock({ pid: process.pid });
    await (
      await lockDataDir(dir)
    )();
  });

  it('trusts a fresh lock of another machine (a shared disk), and takes it once it is no longer refreshed', async () => {
    leaveLock({ pid: 1, host: 'another-machine' });
    await expect(lockDataDir(dir)).rejects.toBeInstanceOf(DataDirLockedError);
    age(lockPath, STALE_MS + 5_000);
    await (
      await lockDataDir(dir)
    )();
  });

  it('respects the lock directory of an older version while it is fresh, and takes it when stale', async () => {
    fs.mkdirSync(lockPath);
    await expect(lockDataDir(dir)).rejects.toBeInstanceOf(DataDirLockedError);
    age(lockPath, STALE_MS + 5_000);
    await (
      await lockDataDir(dir)
    )();
  });

  it('lets exactly one of several processes starting at once after a crash take the lock', async () => {
    leaveLock({ pid: deadPid() });
    // Each racer loads the module, says so, and on "go" tries the lock and keeps what it got until stdin closes.
    const script = `
      const { lockDataDir } = await import(${JSON.stringify(path.join(import.meta.dirname, 'data-dir-lock.ts'))});
      process.stdin.once('data', async () => {
        try { await lockDataDir(${JSON.stringify(dir)}); console.log('took'); }
        catch (e) { console.log(e.constructor.name); }
        process.stdin.once('end', () => process.exit(0));
      });
      console.log('ready');`;
    const racers = Array.from({ length: 4 }, () => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: repoRoot,
      });
      const lines: string[] = [];
      const waiters: (() => void)[] = [];
      child.stdout.on('data', (d: Buffer) => {
        lines.push(...d.toString().trim().split('\n'));
        for (const w of waiters) w();
      });
      const said = (what: (l: string[]) => boolean) =>
        new Promise<void>((resolve) => {
          const check = () => what(lines) && resolve();
          waiters.push(check);
          check();
        });
      return { child, lines, ready: said((l) => l.includes('ready')), answered: said((l) => l.length >= 2) };
    });
    try {
      await Promise.all(racers.map((r) => r.ready));
      for (const r of racers) r.child.stdin.write('go\n');
      await Promise.all(racers.map((r) => r.answered));
      const outcomes = racers.map((r) => r.lines[1]);
      // Exactly one takes it; the others are told it is in use, never another error.
      expect(outcomes.sort()).toEqual(['DataDirLockedError', 'DataDirLockedError', 'DataDirLockedError', 'took']);
    } finally {
      for (const r of racers) r.child.stdin.end();
      await Promise.all(racers.map((r) => new Promise((resolve) => r.child.once('exit', resolve))));
    }
  });
});
