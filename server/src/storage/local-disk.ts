import type { Dir } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { isSpaceCode, OutOfSpaceError } from '../db/out-of-space';
import {
  contentTypeOfKey,
  imageUrl,
  keyOf,
  STORAGE_KEY,
  type OpenedFile,
  type Storage,
  type StoredEntry,
  type StoredFile,
} from './storage';

const isMissing = (err: unknown) => (err as { code?: string }).code === 'ENOENT';

/** A file `put` writes aside before renaming it into place: `<key>.<12 hex>.tmp`. */
const PARTIAL = /^[0-9a-f]{64}(-[1-9][0-9]{0,3})?\.(jpg|webp|avif)\.[0-9a-f]{12}\.tmp$/;

/** Images as files under DATA_DIR/images, served by the app at /images/<key>. */
export class LocalDiskStorage implements Storage {
  constructor(private readonly dir: string) {}

  async put(name: string, bytes: Buffer, contentType: string): Promise<string> {
    const key = keyOf(name, contentType);
    const file = path.join(this.dir, key);
    await fs.mkdir(this.dir, { recursive: true });
    // Write aside then rename: a reader never sees half a file, and two writers of the same content both win.
    // Always written, even when present: the fresh modification time tells the cleanup job the file is in use.
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await fs.writeFile(temp, bytes);
      await fs.rename(temp, file);
    } catch (err) {
      // A write that failed halfway (a full disk) leaves no partial file (docs/decisions.md, issue 22 item 29).
      await fs.rm(temp, { force: true }).catch(() => {});
      if (isSpaceCode((err as { code?: unknown }).code)) throw new OutOfSpaceError({ cause: err });
      throw err;
    }
    return key;
  }

  async get(key: string): Promise<StoredFile | undefined> {
    if (!STORAGE_KEY.test(key)) return undefined;
    try {
      return { bytes: await fs.readFile(path.join(this.dir, key)), contentType: contentTypeOfKey(key) };
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  async open(key: string): Promise<OpenedFile | undefined> {
    const file = await this.get(key);
    return file && { body: file.bytes, contentType: file.contentType, length: file.bytes.length };
  }

  async exists(key: string): Promise<boolean> {
    if (!STORAGE_KEY.test(key)) return false;
    try {
      return (await fs.stat(path.join(this.dir, key))).isFile();
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }

  url(key: string): string {
    return imageUrl(key);
  }

  async *list(): AsyncIterable<StoredEntry> {
    let dir: Dir;
    try {
      dir = await fs.opendir(this.dir);
    } catch (err) {
      if (isMissing(err)) return; // nothing stored yet
      throw err;
    }
    for await (const entry of dir) {
      if (!entry.isFile() || !STORAGE_KEY.test(entry.name)) continue;
      try {
        const { mtime } = await fs.stat(path.join(this.dir, entry.name));
        yield { key: entry.name, modifiedAt: mtime };
      } catch (err) {
        if (!isMissing(err)) throw err; // removed since the directory was read
      }
    }
  }

  async removePartialsOlder(before: Date): Promise<number> {
    let dir: Dir;
    try {
      dir = await fs.opendir(this.dir);
    } catch (err) {
      if (isMissing(err)) return 0;
      throw err;
    }
    let removed = 0;
    for await (const entry of dir) {
      if (!entry.isFile() || !PARTIAL.test(entry.name)) continue;
      const file = path.join(this.dir, entry.name);
      try {
        if ((await fs.stat(file)).mtime.getTime() >= before.getTime()) continue; // a write may still be going on
        await fs.unlink(file);
        removed++;
      } catch (err) {
        if (!isMissing(err)) throw err;
      }
    }
    return removed;
  }

  async removeIfOlder(key: string, before: Date): Promise<boolean> {
    if (!STORAGE_KEY.test(key)) return false;
    const file = path.join(this.dir, key);
    // Move it aside first and judge the file actually moved: an upload that rewrites it between a check and an
    // unlink would otherwise lose its fresh copy. Renames are atomic, so either the rewrite landed before the move
    // (the moved file is fresh and goes back) or after it (the new file is in place and the old one goes).
    const aside = `${file}.${randomBytes(6).toString('hex')}.removing`;
    try {
      await fs.rename(file, aside);
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
    const { mtime } = await fs.stat(aside);
    if (mtime.getTime() < before.getTime()) {
      await fs.unlink(aside);
      return true;
    }
    // Same content as any copy written meanwhile (the name is its hash), so putting it back over one is harmless.
    await fs.rename(aside, file);
    return false;
  }
}

export function localStorageFor(dataDir: string): Storage {
  return new LocalDiskStorage(path.join(dataDir, 'images'));
}
