import { useEffect, useState } from 'react';
import defaultAvatar from '../assets/default-avatar.svg';
import { afterFirstPicture } from './load-order';
import { LruCache } from './lru';

export const DEFAULT_AVATAR: string = defaultAvatar;
export const IMAGE_CACHE_SIZE = 40;

// Images are fetched once as blobs and kept as object URLs; an evicted one is released.
const cache = new LruCache<string, Promise<string>>(IMAGE_CACHE_SIZE, (entry) => {
  void entry.then((src) => {
    if (src.startsWith('blob:')) URL.revokeObjectURL(src);
  });
});

/** The displayable address of an image, or the fallback when it cannot be loaded (the failure is only logged). */
export function loadImage(url: string, fallback = DEFAULT_AVATAR): Promise<string> {
  const hit = cache.get(url);
  if (hit) return hit;
  // Low priority: faces beside the pictures, which should get the bandwidth first.
  const loading = fetch(url, { mode: 'cors', credentials: 'same-origin', priority: 'low' })
    .then(async (res) => {
      if (!res.ok) throw new Error(`image ${url}: ${res.status}`);
      return URL.createObjectURL(await res.blob());
    })
    .catch((err: unknown) => {
      console.warn('image fetch failed', err);
      return fallback;
    });
  cache.set(url, loading);
  return loading;
}

export function useCachedImage(url: string | null | undefined, fallback = DEFAULT_AVATAR): string {
  // The last image loaded; while the next loads, the view keeps it (or the fallback, with no url at all).
  const [src, setSrc] = useState<string | undefined>();
  useEffect(() => {
    if (!url) {
      return;
    }
    let live = true;
    // A wall's first picture, the page's largest paint, loads first (./load-order.ts).
    const cancel = afterFirstPicture(() => void loadImage(url, fallback).then((s) => live && setSrc(s)));
    return () => {
      live = false;
      cancel();
    };
  }, [url, fallback]);
  return (url && src) || fallback;
}
