import { useSyncExternalStore } from 'react';

/**
 * The installable app in the page (docs/product.md#push, docs/decisions.md "Issue 27: the service worker and the
 * manifest"): the browser's offer to install (`beforeinstallprompt`, kept for the profile menu's "Install"), and a
 * new build's worker waiting ("Reload to update"). Kept small: it is part of the first load.
 */

/** Chromium's install offer (not in TypeScript's DOM types). */
type InstallOffer = Event & { prompt(): Promise<void> };

let offer: InstallOffer | null = null;
let update: (() => void) | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => void listeners.delete(l);
};

/**
 * Called once at start: keeps the install offer from now on (the browser may make it early), and registers the
 * worker once the page has loaded and gone idle, loading workbox-window only then (web/src/lib/sw-register.ts), so
 * neither weighs on the first load. Production builds only: never in development or in tests.
 */
export function startPwa(): void {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    offer = event as InstallOffer;
    emit();
  });
  if (!import.meta.env.PROD || !navigator.serviceWorker) return;
  // Safari has no requestIdleCallback: a timer stands in.
  const idle = window.requestIdleCallback ?? setTimeout;
  const register = () => idle(() => void import('./sw-register').then((m) => m.registerWorker(onWaiting)));
  // A painted page asks for the app's scripts only once its first picture is on screen (docs/decisions.md "Issue 28:
  // the wall painted by the server"), which can be after the page's load event: then the worker registers now.
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}

const onWaiting = (apply: () => void) => {
  update = apply;
  emit();
};

const useStore = <T>(get: () => T) => useSyncExternalStore(subscribe, get, get);

/** The function that takes a waiting new build over and reloads, when one waits. */
export const useUpdate = () => useStore(() => update);

/** The browser's offer to install the app, when it made one and it is not used yet. */
export const useInstallOffer = () => useStore(() => offer);

/** Shows the browser's install prompt; an offer serves once. */
export function install(): void {
  const used = offer;
  offer = null;
  emit();
  void used?.prompt();
}
