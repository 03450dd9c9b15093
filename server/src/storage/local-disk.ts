import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { contentTypeOfKey, IMAGE_TYPES, imageUrl, STORAGE_KEY, type Storage, type StoredFile } from './storage';

/** Images as files under DATA_DIR/images, served by the app at /images/<key>. */
export class LocalDiskStorage implements Storage {
  constructor(private readonly dir: string) {}

  async put(hash: string, bytes: Buffer, contentType: string): Promise<string> {
    const ext = IMAGE_TYPES[contentType];
    const key = `${hash}.${ext}`;
    if (!ext || !STORAGE_KEY.test(key)) throw new Error(`cannot store ${contentType} as ${key}`);
    const file = path.join(this.dir, key);
    await fs.mkdir(this.dir, { recursive: true });
    // Write aside then rename: a reader never sees half a file, and two writers of the same content both win.
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    await fs.writeFile(temp, bytes);
    await fs.rename(temp, file);
    return key;
  }

  async get(key: string): Promise<StoredFile | undefined> {
    if (!STORAGE_KEY.test(key)) return undefined;
    try {
      return { bytes: await fs.readFile(path.join(this.dir, key)), contentType: contentTypeOfKey(key) };
    } catch (err) {
      if ((err as { code?: string }).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  url(key: string): string {
    return imageUrl(key);
  }
}

export function localStorageFor(dataDir: string): Storage {
  return new LocalDiskStorage(path.join(dataDir, 'images'));
}
