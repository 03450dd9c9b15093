import { createHash } from 'node:crypto';
import type { Storage } from '../storage/storage';

export interface CopyOutcome {
  copied: number;
  /** Already in the bucket: a second run copies nothing. */
  present: number;
  /** Files whose bytes do not hash to their name (damaged on disk): left where they are, named in `damaged`. */
  damaged: string[];
}

/**
 * `npm run admin -- copy-images-to-s3`: every image of the local disk into the bucket under the same key
 * (docs/decisions.md "Images in object storage"). Idempotent: a key already in the bucket is not sent again, so a run
 * cut short is finished by running it again. The disk's files stay; they can be removed once the servers run with
 * S3_BUCKET.
 */
export async function copyImages(
  from: Storage,
  to: Storage,
  progress: (done: number) => void = () => {},
): Promise<CopyOutcome> {
  const outcome: CopyOutcome = { copied: 0, present: 0, damaged: [] };
  for await (const { key } of from.list()) {
    if (await to.exists(key)) {
      outcome.present++;
    } else {
      const file = await from.get(key);
      if (!file) continue; // removed since it was listed
      const hash = createHash('sha256').update(file.bytes).digest('hex');
      if (`${hash}.${key.split('.')[1]}` !== key) {
        outcome.damaged.push(key);
        continue;
      }
      await to.put(hash, file.bytes, file.contentType);
      outcome.copied++;
    }
    progress(outcome.copied + outcome.present);
  }
  return outcome;
}
