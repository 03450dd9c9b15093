import type { Config } from '../config';
import { localStorageFor } from './local-disk';
import type { Storage } from './storage';

/**
 * The image storage the configuration chooses: the S3 bucket when S3_BUCKET is set (then nothing image-shaped is
 * written under DATA_DIR), else local disk under DATA_DIR/images (docs/decisions.md "Images in object storage").
 */
export async function openStorage(config: Config): Promise<Storage> {
  if (!config.s3) return localStorageFor(config.dataDir);
  // Loaded only when chosen: the AWS SDK costs every process that never uses it a third of a second to import.
  const { s3StorageFor } = await import('./s3');
  return s3StorageFor(config.s3);
}
