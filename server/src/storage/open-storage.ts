import type { Config } from '../config';
import { localStorageFor } from './local-disk';
import { s3StorageFor } from './s3';
import type { Storage } from './storage';

/**
 * The image storage the configuration chooses: the S3 bucket when S3_BUCKET is set (then nothing image-shaped is
 * written under DATA_DIR), else local disk under DATA_DIR/images (docs/decisions.md "Images in object storage").
 */
export function openStorage(config: Config): Storage {
  return config.s3 ? s3StorageFor(config.s3) : localStorageFor(config.dataDir);
}
