import type { WallSort } from './api/pictures';

/** A wall's batches (docs/product.md#wall): the first holds 3 pictures, each later one 2. */
export const FIRST_BATCH = 3;
export const NEXT_BATCH = 2;

/**
 * How wide a wall card's picture is drawn, for the browser to pick a file from `srcset`
 * (web/src/features/pictures/pictures.css and web/src/app/Shell.css): the page's width less 16 px of padding and 1 px of border a side, up to the wall's
 * 640 px less its border. The server's preload of the first picture says the same, so the browser picks the same file.
 */
export const WALL_SIZES = '(max-width: 673px) calc(100vw - 34px), 638px';

export interface WallBatch {
  sort: WallSort;
  offset: number;
  limit: number;
  authorId?: number;
}

/**
 * The address of one batch of a wall. The web client asks it; the server names the first batch of the top and
 * trending walls in the page itself, so the browser fetches it while the scripts load, and takes that answer only
 * when the two addresses are the same to the character: both write it here.
 */
export function wallBatchPath({ sort, offset, limit, authorId }: WallBatch): string {
  const query: Record<string, string> = { sort, offset: String(offset), limit: String(limit) };
  if (authorId !== undefined) query.authorId = String(authorId);
  return `/api/pictures?${new URLSearchParams(query)}`;
}
