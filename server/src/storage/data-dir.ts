import fs from 'node:fs/promises';
import path from 'node:path';
import { isSpaceCode } from '../db/out-of-space';

export const DATA_DIR_FULL = 'The data directory is full.';
export const DATA_DIR_UNWRITABLE = 'The data directory cannot be written to.';

/**
 * Why DATA_DIR cannot take writes now, in a sentence for the operator, or undefined when it can (docs/decisions.md,
 * issue 22 item 29). It holds the uploaded images, the mail files and, on the embedded database, the database
 * itself: a full one fails every write while reads still answer. Checked by writing a few bytes there, and by its
 * free space against `minFreeBytes` (DATA_DIR_MIN_FREE_MB; 0: not checked), so that it is reported before the last
 * block goes rather than after.
 */
export async function dataDirProblem(dir: string, minFreeBytes: number): Promise<string | undefined> {
  try {
    await fs.mkdir(dir, { recursive: true });
    // One file per process, written over each time: nothing piles up even if a check is cut short.
    const probe = path.join(dir, `.write-check-${process.pid}`);
    await fs.writeFile(probe, String(Date.now()));
    await fs.rm(probe, { force: true });
  } catch (err) {
    return isSpaceCode((err as { code?: unknown }).code) ? DATA_DIR_FULL : DATA_DIR_UNWRITABLE;
  }
  if (minFreeBytes === 0) return undefined;
  const free = await fs.statfs(dir).then(
    ({ bavail, bsize }) => bavail * bsize,
    () => undefined,
  );
  if (free === undefined) return DATA_DIR_UNWRITABLE;
  return free < minFreeBytes ? DATA_DIR_FULL : undefined;
}
