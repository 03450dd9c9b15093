import { useEffect, useState } from 'react';

/*
 * A picture's ThumbHash (about 25 bytes, base64, from the API) painted as a blurred PNG until its file arrives
 * (docs/decisions.md "Issue 28, item 4: responsive images"). The decoder (1.3 KB gzipped, ./placeholder-decode.ts)
 * is a chunk of its own, fetched when the first placeholder is wanted, so the wall's first load stays within its
 * budget (docs/performance.md, "Pictures sized for the screen").
 */
let decode: ((thumbHash: string) => string | undefined) | undefined;
let loading: Promise<void> | undefined;

/** Loads the decoder once; resolves when placeholders can be drawn (a failed chunk is asked for again later). */
export function loadPlaceholderDecoder(): Promise<void> {
  loading ??= import('./placeholder-decode').then(
    (m) => void (decode = m.placeholderUrl),
    () => void (loading = undefined),
  );
  return loading;
}

/** The placeholder of a picture as a data URL: undefined while the decoder is on its way, or when there is none. */
export function usePlaceholder(thumbHash: string | null | undefined): string | undefined {
  const [, setReady] = useState(false);
  useEffect(() => {
    if (!thumbHash || decode) return;
    let live = true;
    void loadPlaceholderDecoder().then(() => live && setReady(true));
    return () => {
      live = false;
    };
  }, [thumbHash]);
  return thumbHash && decode ? decode(thumbHash) : undefined;
}
