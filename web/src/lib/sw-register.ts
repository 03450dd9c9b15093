import { Workbox } from 'workbox-window';

/**
 * Registers /sw.js (web/src/sw.ts) with scope /. Loaded only once the page is idle (web/src/lib/pwa.ts), so
 * workbox-window is never part of the first load. `onWaiting` hears of a new build's worker installed and waiting,
 * with the function that takes it over and reloads the page under it.
 */
export async function registerWorker(onWaiting: (apply: () => void) => void): Promise<void> {
  const wb = new Workbox('/sw.js', { scope: '/' });
  wb.addEventListener('waiting', () =>
    onWaiting(() => {
      wb.addEventListener('controlling', () => window.location.reload());
      wb.messageSkipWaiting();
    }),
  );
  await wb.register().catch((err: unknown) => console.warn('The service worker did not register:', err));
}
