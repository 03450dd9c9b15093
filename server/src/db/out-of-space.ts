/**
 * Telling "the disk is full" apart from every other failure (docs/decisions.md, issue 22 item 29). Such an error
 * answers 507 with a sentence for people (http/hooks.ts), not a 500: nothing was saved or charged, and trying later
 * may work once the operator has made room.
 */

/** Raised by our own writers (storage/local-disk.ts) when a write found no room; `cause` is the system's error. */
export class OutOfSpaceError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('No space left to write to', options);
    this.name = 'OutOfSpaceError';
  }
}

/** A full disk (ENOSPC) or a spent quota (EDQUOT), as Node's file system calls say it. */
export const isSpaceCode = (code: unknown): boolean => code === 'ENOSPC' || code === 'EDQUOT';

/** PostgreSQL's disk_full, also what the embedded database says when its data directory fills up. */
const DISK_FULL = '53100';

/** True when `err`, or an error it wraps, means a write found no room. */
export function isOutOfSpace(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof OutOfSpaceError) return true;
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (isSpaceCode(code) || code === DISK_FULL) return true;
    if (typeof message === 'string' && /No space left on device|Disk quota exceeded/i.test(message)) return true;
  }
  return false;
}
