/**
 * Where uploaded images live. Files are named by the hash of their content, so a name never changes meaning and
 * can be cached for good. Local disk today; object storage behind the same interface later (docs/product.md#operations).
 */
export interface StoredFile {
  bytes: Buffer;
  contentType: string;
}

/** A stored file as a listing sees it. */
export interface StoredEntry {
  key: string;
  /** When its bytes were last written; writing the same content again renews it. */
  modifiedAt: Date;
}

export interface Storage {
  /** Stores the bytes under their content hash and answers the key (`keyOf`). Idempotent; renews `modifiedAt`. */
  put(hash: string, bytes: Buffer, contentType: string): Promise<string>;
  get(key: string): Promise<StoredFile | undefined>;
  /** The public URL the file is served at. */
  url(key: string): string;
  /** Every stored file, in no particular order. */
  list(): AsyncIterable<StoredEntry>;
  /**
   * Removes the file only if it was last written before `before`, judged at the moment of removal (a file written
   * again after it was listed stays). Answers whether it removed it.
   */
  removeIfOlder(key: string, before: Date): Promise<boolean>;
  /**
   * Removes what writes that never finished left behind (a process killed mid-write) and last touched before
   * `before`; answers how many. A `put` that fails cleans up after itself, and throws OutOfSpaceError
   * (db/out-of-space.ts) when there was no room.
   */
  removePartialsOlder(before: Date): Promise<number>;
}

export const IMAGE_TYPES: Record<string, string> = { 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/** Keys are `<64 hex>.<ext>`: anything else is refused before it reaches a file system. */
export const STORAGE_KEY = /^[0-9a-f]{64}\.(jpg|webp)$/;

/** The key a file of this content is stored under, known before it is stored. */
export function keyOf(hash: string, contentType: string): string {
  const ext = IMAGE_TYPES[contentType];
  const key = `${hash}.${ext}`;
  if (!ext || !STORAGE_KEY.test(key)) throw new Error(`cannot store ${contentType} as ${key}`);
  return key;
}

export const contentTypeOfKey = (key: string) => (key.endsWith('.webp') ? 'image/webp' : 'image/jpeg');

/** Where the app serves stored images (pictures.routes.ts); a CDN or object store would change only this. */
export const IMAGE_URL_PREFIX = '/images/';
export const imageUrl = (key: string) => `${IMAGE_URL_PREFIX}${key}`;
