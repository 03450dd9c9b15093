import { imageKeysInUse } from '../modules/pictures/pictures.service';
import { baseKeyOf, type Storage } from '../storage/storage';
import type { Tx } from '../db/connection';
import type { Job } from './runner';

/**
 * A stored file younger than this is never removed, used or not: an upload writes its file inside its transaction
 * and the picture that uses it becomes visible only at the commit. An hour is far beyond any transaction's life.
 */
export const ORPHAN_GRACE_MS = 60 * 60_000;
/** Keys checked against the pictures table per query. */
const BATCH = 500;

/**
 * Removes stored images no picture uses, with their variants: files written by an upload whose commit failed, and those left behind
 * before uploads stored their file only once paid; and the partial files of writes that never finished (a process
 * killed mid-write). Hourly, one instance at a time.
 */
export const orphanImagesJob: Job = {
  name: 'orphan-images',
  lock: 727276,
  everyMs: 60 * 60_000,
  async run(ctx, work) {
    const storage = ctx.storage;
    const removed = await removeOrphanImages(work.tx, storage, ctx.now());
    if (removed > 0) ctx.log.info({ removed }, 'removed stored images no picture uses');
    const partials = await storage.removePartialsOlder(new Date(ctx.now().getTime() - ORPHAN_GRACE_MS));
    if (partials > 0) ctx.log.info({ removed: partials }, 'removed partial image files of writes that never finished');
  },
};

export async function removeOrphanImages(tx: Tx, storage: Storage, now: Date): Promise<number> {
  const before = new Date(now.getTime() - ORPHAN_GRACE_MS);
  let removed = 0;
  let batch: string[] = [];
  const sweep = async () => {
    // A variant (`<hash>-<width>.<ext>`) belongs to its base file's pictures, and goes when they no longer name it.
    const used = await imageKeysInUse(tx, [...new Set(batch.map(baseKeyOf))]);
    for (const key of batch) {
      // A picture committed after the check above wrote its file first, so that file is too new to go.
      if (!used.has(baseKeyOf(key)) && (await storage.removeIfOlder(key, before))) removed++;
    }
    batch = [];
  };
  for await (const { key, modifiedAt } of storage.list()) {
    if (modifiedAt.getTime() >= before.getTime()) continue;
    batch.push(key);
    if (batch.length >= BATCH) await sweep();
  }
  if (batch.length > 0) await sweep();
  return removed;
}
