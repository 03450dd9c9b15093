import { useLayoutEffect, useMemo, useRef } from 'react';

/*
 * What a page loads first. A wall's first picture is the page's largest paint: until it is in, the small images
 * beside it (the faces of the image cache) wait, so that on a slow connection they do not share its bandwidth (at
 * most HOLD_MS; a page without such a picture does not wait). Code the page may need later (the popups, the open
 * price tag) is fetched after that, once the page has loaded and the browser is idle.
 */
const HOLD_MS = 3_000;
let holds = 0;
let waiting = new Set<() => void>();

function hold(): () => void {
  holds++;
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    clearTimeout(timer);
    holds--;
    if (holds > 0) return;
    const run = waiting;
    waiting = new Set();
    run.forEach((fn) => fn());
  };
  const timer = setTimeout(release, HOLD_MS);
  return release;
}

/** Runs `fn` once no first picture is loading (at once when none is); returns a function that cancels it. */
export function afterFirstPicture(fn: () => void): () => void {
  if (holds === 0) {
    fn();
    return () => {};
  }
  waiting.add(fn);
  return () => waiting.delete(fn);
}

/** An image's load (with the element) and failure, as web/src/features/pictures/components/PictureImage.tsx reports them. */
export interface ImageEvents {
  onLoad?: (img: HTMLImageElement) => void;
  onError?: () => void;
}

/**
 * For the first picture's card: holds the small images from its first render until its image is on screen, or has
 * failed. Returns the image's load and error handlers.
 */
export function useFirstPicture(active: boolean): ImageEvents {
  const release = useRef<(() => void) | undefined>(undefined);
  // A layout effect, so it runs before the faces' effects of the same render ask for their images.
  useLayoutEffect(() => {
    if (!active) return;
    const done = hold();
    release.current = done;
    return done;
  }, [active]);
  return useMemo(
    () => ({
      onLoad: (img: HTMLImageElement) => afterPainted(img, () => release.current?.()),
      onError: () => release.current?.(),
    }),
    [],
  );
}

/**
 * Runs `done` once `img` is on screen: when the browser reports it as the page's largest paint, so that what waits
 * for it is no part of that paint; where that report does not exist, after the frame that shows it.
 */
function afterPainted(img: HTMLImageElement, done: () => void): void {
  if (!PerformanceObserver.supportedEntryTypes?.includes('largest-contentful-paint')) {
    void img
      .decode()
      .catch(() => {})
      .then(() => requestAnimationFrame(() => setTimeout(done, 0)));
    return;
  }
  const observer = new PerformanceObserver((list) => {
    // The same file painted before the app (the wall painted by the server, whose img this one replaced) counts.
    const shown = (entry: LargestContentfulPaint) =>
      entry.element === img || (entry.url !== '' && entry.url === img.currentSrc);
    if (!list.getEntries().some((entry) => shown(entry as LargestContentfulPaint))) return;
    observer.disconnect();
    done();
  });
  observer.observe({ type: 'largest-contentful-paint', buffered: true });
  // A larger paint before it means no report for it: the hold's own time limit ends the wait then.
  setTimeout(() => observer.disconnect(), HOLD_MS);
}

/**
 * Runs `fn` once the page has loaded, the browser has had a quiet moment (at the latest `timeout` ms after the load)
 * and the first picture is in: for fetching code before it is asked for. Returns a function that cancels it.
 */
export function whenSettled(fn: () => void, timeout = 3_000): () => void {
  let cancel = () => {};
  const settled = () => {
    cancel = afterFirstPicture(fn);
  };
  const loaded = () => {
    // Safari has no requestIdleCallback.
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(settled, { timeout });
      cancel = () => window.cancelIdleCallback(id);
    } else {
      const id = setTimeout(settled, 200);
      cancel = () => clearTimeout(id);
    }
  };
  if (document.readyState === 'complete') loaded();
  else {
    window.addEventListener('load', loaded, { once: true });
    cancel = () => window.removeEventListener('load', loaded);
  }
  return () => cancel();
}
