import { thumbHashToDataURL } from 'thumbhash';

/*
 * The placeholder's decoder, a chunk of its own (./placeholder.ts loads it): a ThumbHash, base64, as a PNG data URL,
 * decoded once per picture (cards that scroll out and back in find it here).
 */
const MAX_KEPT = 500;
const decoded = new Map<string, string | undefined>();

export function placeholderUrl(thumbHash: string): string | undefined {
  if (decoded.has(thumbHash)) return decoded.get(thumbHash);
  let url: string | undefined;
  try {
    url = thumbHashToDataURL(Uint8Array.from(atob(thumbHash), (c) => c.charCodeAt(0)));
  } catch {
    url = undefined; // not a ThumbHash: the picture shows without one
  }
  if (decoded.size >= MAX_KEPT) decoded.clear();
  decoded.set(thumbHash, url);
  return url;
}
