/**
 * Where uploaded images live. Files are named by the hash of their content, so a name never changes meaning and
 * can be cached for good. Local disk today; object storage behind the same interface later (DESIGN.md §6).
 */
export interface StoredFile {
  bytes: Buffer;
  contentType: string;
}

export interface Storage {
  /** Stores the bytes under their content hash and answers the key (hash plus extension). Idempotent. */
  put(hash: string, bytes: Buffer, contentType: string): Promise<string>;
  get(key: string): Promise<StoredFile | undefined>;
  /** The public URL the file is served at. */
  url(key: string): string;
}

export const IMAGE_TYPES: Record<string, string> = { 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/** Keys are `<64 hex>.<ext>`: anything else is refused before it reaches a file system. */
export const STORAGE_KEY = /^[0-9a-f]{64}\.(jpg|webp)$/;

export const contentTypeOfKey = (key: string) => (key.endsWith('.webp') ? 'image/webp' : 'image/jpeg');

/** Where the app serves stored images (pictures.routes.ts); a CDN or object store would change only this. */
export const IMAGE_URL_PREFIX = '/images/';
export const imageUrl = (key: string) => `${IMAGE_URL_PREFIX}${key}`;
