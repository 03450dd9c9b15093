/// <reference lib="webworker" />
/**
 * The service worker (docs/product.md#push, docs/decisions.md "Issue 27: the service worker and the manifest"),
 * built by vite-plugin-pwa (injectManifest, vite.config.ts) to /sw.js with scope /.
 *
 * - Precached: the build's hashed assets, the icons and the favicon (`self.__WB_MANIFEST`); a new build's worker
 *   replaces them and waits until the page says to take over ("Reload to update", web/src/lib/pwa.ts).
 * - The shell: the server fills index.html per request and tenant, so the worker keeps the page its own host serves
 *   for `/` when it installs, beside the assets that page names. Navigations go to the network first and fall back
 *   to that copy: offline, every route opens the app, which says 'You are offline' where data cannot load.
 * - Data: only the public wall listing (`GET /api/pictures`, the same answer for everyone) and the pictures
 *   (`GET /images/…`) are kept, network first, to show the last loaded wall offline. No other /api answer is ever
 *   stored: nothing about money, the balance, the profile, notifications, chat or any signed-in user's data.
 * - Push: a notification from the payload, and a click that opens or focuses the app on its path.
 * - Share target: POST /share-target keeps the shared image and sends the browser to /upload?shared=1.
 */
import { cleanupOutdatedCaches, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import {
  SHARE_FAILED_URL,
  SHARED_IMAGE_CACHE,
  SHARED_IMAGE_KEY,
  SHARED_NAME_HEADER,
  SHARED_UPLOAD_URL,
} from './lib/shared-image';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | PrecacheEntry)[] };

const manifest = self.__WB_MANIFEST;

/** This build's name: the shell copy belongs to the assets it names, and goes with them. */
const BUILD = (() => {
  let h = 0;
  for (const c of JSON.stringify(manifest)) h = (Math.imul(h, 31) + c.charCodeAt(0)) | 0;
  return (h >>> 0).toString(36);
})();
const SHELL_CACHE = `shell-${BUILD}`;
const SHELL_KEY = '/';
const WALL_CACHE = 'public-wall';
const IMAGE_CACHE = 'wall-images';
/** The newest answers kept in each runtime cache. */
const WALL_ENTRIES = 20;
const IMAGE_ENTRIES = 60;

precacheAndRoute(manifest);
cleanupOutdatedCaches();

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const res = await fetch(SHELL_KEY, { cache: 'no-store', credentials: 'same-origin' });
      if (!res.ok) throw new Error(`the shell answered ${res.status}`);
      await (await caches.open(SHELL_CACHE)).put(SHELL_KEY, res);
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith('shell-') && name !== SHELL_CACHE) await caches.delete(name);
      }
      // The first worker takes the page that registered it, so it works offline without a reload.
      await self.clients.claim();
    })(),
  );
});

// "Reload to update": workbox-window's messageSkipWaiting().
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

// Paths that are never a page of the app (server/src/modules/spa/spa.routes.ts, NOT_THE_APP).
const NOT_THE_APP = [/^\/api(\/|$)/, /^\/metrics$/, /^\/demo-checkout/, /^\/images\//, /^\/icons\//, /^\/sw\.js$/];

registerRoute(
  new NavigationRoute(
    async ({ request }) => {
      try {
        return await fetch(request);
      } catch (err) {
        const shell = await (await caches.open(SHELL_CACHE)).match(SHELL_KEY);
        if (shell) return shell;
        throw err;
      }
    },
    { denylist: NOT_THE_APP },
  ),
);

/** The network's answer, kept for offline; the kept one only when the network cannot answer. */
async function networkFirst(request: Request, cacheName: string, maxEntries: number): Promise<Response> {
  const cache = await caches.open(cacheName);
  try {
    const res = await fetch(request);
    if (res.ok && res.type === 'basic') {
      await cache.put(request, res.clone());
      const keys = await cache.keys();
      for (const old of keys.slice(0, Math.max(0, keys.length - maxEntries))) await cache.delete(old);
    }
    return res;
  } catch (err) {
    const kept = await cache.match(request);
    if (kept) return kept;
    throw err;
  }
}

registerRoute(
  ({ url, request }) =>
    url.origin === self.location.origin && url.pathname === '/api/pictures' && request.method === 'GET',
  ({ request }) => networkFirst(request, WALL_CACHE, WALL_ENTRIES),
);
registerRoute(
  ({ url, request }) =>
    url.origin === self.location.origin && url.pathname.startsWith('/images/') && request.method === 'GET',
  ({ request }) => networkFirst(request, IMAGE_CACHE, IMAGE_ENTRIES),
);

// The share target (the manifest's share_target): the system posts the image, maybe with `Origin: null`.
registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname === '/share-target',
  async ({ request }) => {
    try {
      const image = (await request.formData()).get('image');
      if (!(image instanceof File) || image.size === 0) return Response.redirect(SHARE_FAILED_URL, 303);
      await caches.delete(SHARED_IMAGE_CACHE);
      await (
        await caches.open(SHARED_IMAGE_CACHE)
      ).put(
        SHARED_IMAGE_KEY,
        new Response(image, {
          headers: {
            'content-type': image.type || 'application/octet-stream',
            [SHARED_NAME_HEADER]: encodeURIComponent(image.name),
          },
        }),
      );
      return Response.redirect(SHARED_UPLOAD_URL, 303);
    } catch {
      return Response.redirect(SHARE_FAILED_URL, 303);
    }
  },
  'POST',
);

/** A push's payload (server/src/modules/push). */
interface PushPayload {
  title?: string;
  body?: string;
  url?: string;
  type?: string;
}

self.addEventListener('push', (event) => {
  let payload: PushPayload = {};
  try {
    payload = (event.data?.json() ?? {}) as PushPayload;
  } catch {
    payload = { body: event.data?.text() };
  }
  event.waitUntil(
    self.registration.showNotification(payload.title ?? 'New activity', {
      body: payload.body,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      tag: payload.type,
      data: { url: payload.url ?? '/' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const path = (event.notification.data as { url?: string } | null)?.url ?? '/';
  const url = new URL(path, self.location.origin);
  // Only the app's own pages: a payload never sends the browser elsewhere.
  const target = url.origin === self.location.origin ? url.href : self.location.origin + '/';
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
      if (open) {
        const focused = await open.focus();
        await focused.navigate(target).catch(() => undefined);
        return;
      }
      await self.clients.openWindow(target);
    })(),
  );
});
