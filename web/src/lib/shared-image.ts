/**
 * An image shared to the installed app (the manifest's share target, docs/product.md#push): the service worker keeps
 * it in Cache Storage under one fixed key (web/src/sw.ts), and the upload page takes it from there. It stays until
 * the picture is released or another image is shared, so a visitor who signs in first still has it.
 */
export const SHARED_IMAGE_CACHE = 'shared-image';
export const SHARED_IMAGE_KEY = '/shared-image';
/** Where the worker sends the browser once the image is kept, and where a share nobody kept lands. */
export const SHARED_UPLOAD_URL = '/upload?shared=1';
export const SHARE_FAILED_URL = '/upload?shared=failed';
/** The file's name travels in a header of the stored answer, URI-encoded. */
export const SHARED_NAME_HEADER = 'x-file-name';

/** The shared image, when one waits. */
export async function readSharedImage(): Promise<File | undefined> {
  if (typeof caches === 'undefined') return undefined;
  const stored = await (await caches.open(SHARED_IMAGE_CACHE)).match(SHARED_IMAGE_KEY);
  if (!stored) return undefined;
  const blob = await stored.blob();
  const name = decodeURIComponent(stored.headers.get(SHARED_NAME_HEADER) ?? 'shared-image');
  return new File([blob], name, { type: blob.type || stored.headers.get('content-type') || '' });
}

/** Forgets the shared image once it is on the wall. */
export async function dropSharedImage(): Promise<void> {
  if (typeof caches === 'undefined') return;
  await caches.delete(SHARED_IMAGE_CACHE);
}
