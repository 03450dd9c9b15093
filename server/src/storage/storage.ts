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
  /**
   * Stores the bytes under a name, their content hash or a variant's `<hash>-<width>` (`variantName`), and answers
   * the key (`keyOf`). Idempotent; renews `modifiedAt`.
   */
  put(name: string, bytes: Buffer, contentType: string): Promise<string>;
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

export const IMAGE_TYPES: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/avif': 'avif',
};

/**
 * Keys are `<64 hex>.<ext>` (a picture's base file, named by its content's hash) or `<64 hex>-<width>.<ext>` (one
 * of its variants, named from the base's hash: docs/decisions.md "Issue 28, item 4: responsive images"): anything
 * else is refused before it reaches a file system.
 */
export const STORAGE_KEY = /^[0-9a-f]{64}(-[1-9][0-9]{0,3})?\.(jpg|webp|avif)$/;
const VARIANT_KEY = /^([0-9a-f]{64})-[1-9][0-9]{0,3}\./;

/** The formats a picture's variants are stored in, best first (the order of a `<picture>`'s sources). */
export const VARIANT_FORMATS = ['avif', 'webp', 'jpeg'] as const;
export type VariantFormat = (typeof VARIANT_FORMATS)[number];
export const FORMAT_TYPES: Record<VariantFormat, string> = {
  avif: 'image/avif',
  webp: 'image/webp',
  jpeg: 'image/jpeg',
};

/** The name (a key without its extension) of a variant of the base file with this hash. */
export const variantName = (hash: string, width: number) => `${hash}-${width}`;

/** The key a variant of a base key is stored under. */
export function variantKey(baseKey: string, width: number, format: VariantFormat): string {
  return keyOf(variantName(baseKey.slice(0, baseKey.indexOf('.')), width), FORMAT_TYPES[format]);
}

/** Whether the key names a variant rather than a base file. */
export const isVariantKey = (key: string) => VARIANT_KEY.test(key);

/** The base file a key belongs to: itself, or for a variant `<hash>-<width>.<ext>` its base JPEG `<hash>.jpg`. */
export function baseKeyOf(key: string): string {
  const m = VARIANT_KEY.exec(key);
  return m ? `${m[1]}.jpg` : key;
}

/** A key without its extension: the name `put` takes. */
export const nameOfKey = (key: string) => key.slice(0, key.lastIndexOf('.'));

/** The key a file of this name (a content hash or a variant's name) is stored under, known before it is stored. */
export function keyOf(name: string, contentType: string): string {
  const ext = IMAGE_TYPES[contentType];
  const key = `${name}.${ext}`;
  if (!ext || !STORAGE_KEY.test(key)) throw new Error(`cannot store ${contentType} as ${key}`);
  return key;
}

export function contentTypeOfKey(key: string): string {
  if (key.endsWith('.webp')) return 'image/webp';
  if (key.endsWith('.avif')) return 'image/avif';
  return 'image/jpeg';
}

/** Where the app serves stored images (pictures.routes.ts); a CDN or object store would change only this. */
export const IMAGE_URL_PREFIX = '/images/';
export const imageUrl = (key: string) => `${IMAGE_URL_PREFIX}${key}`;

/**
 * A face beside a wall card, drawn at 32 px: the narrowest WebP variant of the profile picture where it has
 * variants (a few KB instead of the 1080 px JPEG), else its base file.
 */
export function faceUrl(key: string, variantWidths: number[] | null): string {
  return imageUrl(
    variantWidths && variantWidths.length > 0 ? variantKey(key, Math.min(...variantWidths), 'webp') : key,
  );
}

/**
 * The ETag of a stored image: its name, the content hash (and a variant's width), the first part of its key. The
 * same on every instance and every storage, so a browser's copy stays valid when images move to object storage.
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
