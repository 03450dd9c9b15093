import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * One process at a time on an embedded database directory (two would corrupt it). The lock is a file naming its
 * owner (pid and host), created exclusively. A lock whose owner is dead is taken over at once, so a server killed
 * with `kill -9` starts again without waiting (issue 9, item 12); a live owner keeps it. The owner also refreshes
 * the file's time while it runs, and a lock not refreshed for STALE_MS is taken over whoever it names: that covers
 * an owner on another machine (a shared disk) or a pid reused by an unrelated process.
 */

export class DataDirLockedError extends Error {
  constructor(dir: string) {
    super(
      `The embedded database in ${dir} is in use by another process (is the server running?). ` +
        'Stop that process first, or point DATABASE_URL at PostgreSQL.',
    );
  }
}

export const LOCK_FILE = '.lock';
const HEARTBEAT_MS = 5_000;
export const STALE_MS = 15_000;

interface Owner {
  pid: number;
  host: string;
  /** Tells this holding apart from any other, even one with the same pid. */
  nonce: string;
}

/** Lock files this process holds: a second open here is refused, not mistaken for a dead process's lock. */
const heldHere = new Set<string>();

/** Takes the directory's lock; answers the function that gives it back. */
export async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const lockPath = path.join(path.resolve(dir), LOCK_FILE);
  const me: Owner = { pid: process.pid, host: os.hostname(), nonce: randomBytes(8).toString('hex') };
  // A few rounds: another process may take or free the lock between our looks.
  for (let round = 0; round < 3; round++) {
    if (create(lockPath, me)) return hold(lockPath, me);
    const seen = inspect(lockPath);
    if (seen.state === 'live') throw new DataDirLockedError(dir);
    if (seen.state === 'stale') takeOver(dir, lockPath, seen.raw);
  }
  throw new DataDirLockedError(dir);
}

function create(lockPath: string, me: Owner): boolean {
  try {
    fs.writeFileSync(lockPath, JSON.stringify(me), { flag: 'wx' });
    heldHere.add(lockPath);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

type Seen = { state: 'gone' } | { state: 'live' } | { state: 'stale'; raw: string | undefined };

function inspect(lockPath: string): Seen {
  let stat: fs.Stats;
  let raw: string | undefined;
  try {
    stat = fs.lstatSync(lockPath);
    // A directory is the lock of an older version of this server (proper-lockfile); it names no owner.
    if (!stat.isDirectory()) raw = fs.readFileSync(lockPath, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'gone' };
    throw err;
  }
  if (Date.now() - stat.mtimeMs > STALE_MS) return { state: 'stale', raw };
  const owner = parseOwner(raw);
  // No owner to ask (still being written, or an older version's lock) or one on another machine: a fresh lock
  // stands until it goes stale.
  if (!owner || owner.host !== os.hostname()) return { state: 'live' };
  if (owner.pid === process.pid) {
    // Our own pid: this process holds it, or the lock is from a previous process that had the same pid (in a
    // container the server is often pid 1 every time).
    return heldHere.has(lockPath) ? { state: 'live' } : { state: 'stale', raw };
  }
  return processAlive(owner.pid) ? { state: 'live' } : { state: 'stale', raw };
}

function parseOwner(raw: string | undefined): Owner | undefined {
  try {
    const o = JSON.parse(raw ?? '') as Partial<Owner>;
    return Number.isSafeInteger(o.pid) && typeof o.host === 'string' ? (o as Owner) : undefined;
  } catch {
    return undefined;
  }
}

/** Signal 0 checks that a process exists without touching it; EPERM means it exists under another user. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A killed process whose parent has not reaped it yet still answers, as a zombie: it holds nothing any more.
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no /proc here: believe the signal
  }
}

/**
 * Removes a stale lock, but only the very one we judged stale: two processes starting at once after a crash both
 * see the dead owner, and the second must not remove the lock the first has just taken. Takers queue on a mutex
 * directory, and each removes the lock only if it still holds what it saw.
 */
function takeOver(dir: string, lockPath: string, seenRaw: string | undefined): void {
  const mutex = `${lockPath}.takeover`;
  try {
    fs.mkdirSync(mutex);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // A taker died inside its few lines here: its mutex goes stale like a lock; else another is at work now. A
    // mutex gone by the time we look means that taker has just finished: look at the lock again.
    const since = mtimeMs(mutex);
    if (since === undefined) return;
    if (Date.now() - since <= STALE_MS) throw new DataDirLockedError(dir);
    fs.rmSync(mutex, { recursive: true, force: true });
    return;
  }
  try {
    const now = inspect(lockPath);
    if (now.state === 'stale' && now.raw === seenRaw) fs.rmSync(lockPath, { recursive: true, force: true });
  } finally {
    fs.rmSync(mutex, { recursive: true, force: true });
  }
}

/** A file's modification time, or undefined when it is gone. */
function mtimeMs(file: string): number | undefined {
  try {
    return fs.statSync(file).mtimeMs;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

function hold(lockPath: string, me: Owner): () => Promise<void> {
  const mine = JSON.stringify(me);
  const stillMine = () => {
    try {
      return fs.readFileSync(lockPath, 'utf8') === mine;
    } catch {
      return false;
    }
  };
  const heartbeat = setInterval(() => {
    if (!stillMine()) {
      // Someone took the lock over while this process did not refresh it (frozen past STALE_MS): two processes
      // must never write one database, so this one stops here.
      clearInterval(heartbeat);
      throw new Error(`Lost the lock on ${path.dirname(lockPath)} to another process; stopping.`);
    }
    const now = new Date();
    fs.utimesSync(lockPath, now, now);
  }, HEARTBEAT_MS);
  heartbeat.unref();
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    clearInterval(heartbeat);
    heldHere.delete(lockPath);
    if (stillMine()) fs.rmSync(lockPath, { force: true });
  };
}
