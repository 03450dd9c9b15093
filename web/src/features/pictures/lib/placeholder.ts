import { thumbHashToDataURL } from 'thumbhash';
import { LruCache } from '../../../lib/lru';

/*
 * A picture's ThumbHash (about 25 bytes, base64, from the API) painted as a blurred PNG until its file arrives
 * (docs/decisions.md "Issue 28, item 4: responsive images"). The decoder is a few kilobytes, so it ships with the
 * wall. Decoded once per picture: cards that scroll out and back in find it here.
 */
const decoded = new LruCache<string, string>(200);

/** The placeholder as a data URL, or undefined when there is none or it does not decode. */
export function placeholderUrl(thumbHash: string | null | undefined): string | undefined {
  if (!thumbHash) return undefined;
  const hit = decoded.get(thumbHash);
  if (hit !== undefined) return hit;
  let url: string;
  try {
    url = thumbHashToDataURL(Uint8Array.from(atob(thumbHash), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
  decoded.set(thumbHash, url);
  return url;
}
