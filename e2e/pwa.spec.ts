import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, signUp, test } from './fixtures';
import { makeImage, shot } from './pictures-helpers';

// The service worker is what these tests are about (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

// The installable app (docs/product.md#push, docs/decisions.md "Issue 27: the service worker and the manifest").

/** The built worker the test server reads on every request (server/src/modules/spa/spa.routes.ts). */
const SW_FILE = path.resolve(import.meta.dirname, '../dist/web/sw.js');

/** A GET under another Host header (Node's own client: the browser's and fetch's refuse to set it). */
function getOnHost(url: string, host: string): Promise<{ status: number; type: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { host } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, type: res.headers['content-type'] ?? '', body: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject);
  });
}

/** Width and height from a PNG's header, after checking its signature. */
function pngSize(bytes: Buffer): [number, number] {
  expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

/** Opens a page and waits until the service worker controls it (registered once the page is idle). */
async function controlled(page: Page, url = '/'): Promise<void> {
  await page.goto(url);
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(new URL(scope).pathname).toBe('/');
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/\/sw\.js$/);
}

/** The browser's own lines about requests the cut network failed: expected while offline, not the app's errors. */
const dropOfflineNoise = (errors: string[]) => {
  const kept = errors.filter((e) => !/ERR_INTERNET_DISCONNECTED|WebSocket connection to .* failed/.test(e));
  errors.splice(0, errors.length, ...kept);
};

test('the manifest is valid and carries each host’s brand, with real PNG icons', async ({ request, baseURL }) => {
  const port = new URL(baseURL!).port;
  for (const [host, name] of [
    [`localhost:${port}`, 'The ultimate flex'],
    [`green.test:${port}`, 'The green app'],
  ] as const) {
    const res = await getOnHost(`${baseURL}/manifest.webmanifest`, host);
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^application\/manifest\+json/);
    const m = JSON.parse(res.body.toString()) as Record<string, unknown> & {
      icons: { src: string; sizes: string; type: string; purpose: string }[];
    };
    expect(m).toMatchObject({ name, start_url: '/', scope: '/', display: 'standalone', theme_color: '#0f766e' });
    expect(m.share_target).toEqual({
      action: '/share-target',
      method: 'POST',
      enctype: 'multipart/form-data',
      params: { files: [{ name: 'image', accept: ['image/*'] }] },
    });
    expect(m.icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
    for (const icon of m.icons) {
      const png = await request.get(icon.src);
      expect(png.headers()['content-type']).toBe('image/png');
      const side = Number(icon.sizes.split('x')[0]);
      expect(pngSize(await png.body())).toEqual([side, side]);
    }
  }
});

test('the page links the manifest, registers /sw.js at / and is controlled after a reload', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#0f766e');
  await expect(page.locator('link[rel="apple-touch-icon"]')).toHaveAttribute('href', '/icons/apple-touch-icon.png');
  await controlled(page);
  const sw = await page.request.get('/sw.js');
  expect(sw.headers()['cache-control']).toBe('no-cache');
});

test('offline, every route opens the shell and says You are offline', async ({
  page,
  context,
  consoleErrors,
}, info) => {
  await signUp(page);
  await controlled(page);
  await context.setOffline(true);
  try {
    await page.reload();
    await expect(page.getByTestId('offline-banner')).toHaveText('You are offline');
    await expect(page.getByRole('link', { name: /home/ })).toBeVisible();
    // Signed in still: a failed profile load offline is not a broken session.
    await expect(page.getByRole('button', { name: 'SIGN IN' })).toHaveCount(0);

    await page.goto('/transactions');
    await expect(page.getByTestId('offline-banner')).toBeVisible();
    // Where the screen's data cannot load, it says so rather than a generic failure.
    await expect(page.getByRole('alert').filter({ hasText: 'You are offline' }).first()).toBeVisible();
    await page.screenshot({ path: shot(info.project.name, 'pwa-offline') });
  } finally {
    await context.setOffline(false);
    dropOfflineNoise(consoleErrors);
  }
  await page.reload();
  await expect(page.getByTestId('offline-banner')).toHaveCount(0);
  // Lines the cut network left that arrived after it came back (the live socket's last failed attempt).
  dropOfflineNoise(consoleErrors);
});

test('a new build waits, offers Reload to update, and takes over when clicked', async ({ page }, info) => {
  await controlled(page);
  const built = readFileSync(SW_FILE, 'utf8');
  try {
    // A new build as the browser sees it: another worker script at /sw.js.
    writeFileSync(SW_FILE, `${built}\n// e2e update ${Date.now()}\n`);
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
    const toast = page.getByTestId('update-toast');
    await expect(toast).toBeVisible();
    await expect(toast.getByRole('button', { name: 'Reload to update' })).toBeVisible();
    await page.screenshot({ path: shot(info.project.name, 'pwa-update') });

    const reloaded = page.waitForEvent('load');
    await toast.getByRole('button', { name: 'Reload to update' }).click();
    await reloaded;
    await expect(page.getByTestId('update-toast')).toHaveCount(0);
    const state = await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.getRegistration();
      return { waiting: reg?.waiting ?? null, controlled: navigator.serviceWorker.controller !== null };
    });
    expect(state).toEqual({ waiting: null, controlled: true });
  } finally {
    writeFileSync(SW_FILE, built);
  }
});

/** Posts an image to the share target from the page, as the system does for the installed app. */
async function share(page: Page, png: Buffer): Promise<string> {
  return page.evaluate(
    async (bytes) => {
      const form = new FormData();
      form.append('image', new File([new Uint8Array(bytes)], 'from-gallery.png', { type: 'image/png' }));
      const res = await fetch('/share-target', { method: 'POST', body: form });
      return new URL(res.url).pathname + new URL(res.url).search;
    },
    [...png],
  );
}

test('an image shared to the app opens the upload page with it, ready for a price', async ({ page }) => {
  await signUp(page);
  await controlled(page);
  expect(await share(page, await makeImage(400, 300))).toBe('/upload?shared=1');
  await page.goto('/upload?shared=1');
  await expect(page.getByRole('img', { name: 'Preview of your picture' })).toBeVisible();
  await expect(page.getByLabel('Price in dollars')).toBeVisible();
});

test('a visitor who shares an image signs in first and keeps it', async ({ page }) => {
  await controlled(page);
  expect(await share(page, await makeImage(300, 300))).toBe('/upload?shared=1');
  await page.goto('/upload?shared=1');
  await expect(page.getByRole('dialog', { name: 'Sign in' })).toBeVisible();
  await expect(page).toHaveURL(/\/upload\?shared=1$/);
  await expect(page.getByRole('img', { name: 'Preview of your picture' })).toBeAttached();
  // Signed in (as the popup would), the same page still has the image.
  await signUp(page);
  await page.goto('/upload?shared=1');
  await expect(page.getByRole('img', { name: 'Preview of your picture' })).toBeVisible();
});

test('a share no service worker took lands on the upload page, which says to open the app first', async ({ page }) => {
  await signUp(page);
  const res = await page.request.post('/share-target', {
    headers: { origin: 'null' },
    multipart: { image: { name: 'a.png', mimeType: 'image/png', buffer: await makeImage(200, 200) } },
    maxRedirects: 0,
  });
  expect(res.status()).toBe(303);
  expect(res.headers().location).toBe('/upload?shared=failed');
  await page.goto('/upload?shared=failed');
  await expect(page.getByRole('alert')).toContainText('The shared picture did not arrive.');
});
