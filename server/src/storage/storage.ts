import type { Readable } from 'node:stream';

/**
 * Where uploaded images live. Files are named by the hash of their content, so a name never changes meaning and
 * can be cached for good. Local disk under DATA_DIR (local-disk.ts) by default, or an S3 bucket shared by every
 * instance (s3.ts) when S3_BUCKET is set (docs/product.md#operations, docs/decisions.md "Images in object storage").
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

/** A stored file opened for sending: its bytes arrive as a stream (object storage) or at once (local disk). */
export interface OpenedFile {
  body: Readable | Buffer;
  contentType: string;
  /** Bytes in the body, when known before it is read. */
  length: number | undefined;
}

export interface Storage {
  /** Stores the bytes under their content hash and answers the key (`keyOf`). Idempotent; renews `modifiedAt`. */
  put(hash: string, bytes: Buffer, contentType: string): Promise<string>;
  get(key: string): Promise<StoredFile | undefined>;
  /** The file for sending to a client, or undefined when there is none; object storage streams it. */
  open(key: string): Promise<OpenedFile | undefined>;
  /** Whether a file is stored under the key, without reading it (a 304 still checks the image is there). */
  exists(key: string): Promise<boolean>;
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
  /** Lets go of connections (object storage); nothing to do on local disk. */
  close?(): void;
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

/**
 * The ETag of a stored image: its content hash, the first part of its key. The same on every instance and every
 * storage, so a browser's copy stays valid when images move to object storage.
 */
export const etagOf = (key: string) => `"${key.slice(0, key.indexOf('.'))}"`;

/** Whether an If-None-Match header names this ETag (or `*`); weak and strong forms compare alike for a GET. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}
