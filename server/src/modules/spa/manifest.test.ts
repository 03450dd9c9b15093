import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import type { App } from '../../context';
import { startTestApp, type TestApp } from '../../test/harness';
import { headTags, spaRoutes } from './spa.routes';

// The installable app's routes (docs/product.md#push, docs/decisions.md "Issue 27: the service worker and the manifest").

let t: TestApp;
beforeAll(async () => {
  // The real app: its hooks (the Origin check, the body types) decide what the share target may take.
  t = await startTestApp({ config: { serveWeb: true } });
});
afterAll(() => t.close());

const manifestOn = async (host: string) => {
  const res = await t.client().get('/manifest.webmanifest', { host });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
  return res.json() as Record<string, unknown>;
};

describe('the web app manifest', () => {
  it("carries the cash host's brand, the look's colours, the icons and the share target", async () => {
    const m = await manifestOn('localhost:3000');
    expect(m).toMatchObject({
      name: 'The ultimate flex',
      short_name: 'Flex',
      description: 'Social network with expensive twist.',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      theme_color: '#0f766e',
      background_color: '#f4f6f8',
      share_target: {
        action: '/share-target',
        method: 'POST',
        enctype: 'multipart/form-data',
        params: { files: [{ name: 'image', accept: ['image/*'] }] },
      },
    });
    expect(m.icons).toEqual([
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ]);
  });

  it("carries the charity host's brand on any other host", async () => {
    expect(await manifestOn('green.example')).toMatchObject({ name: 'The green app', short_name: 'Green app' });
  });

  it('is linked from every page with the theme colour and the touch icon', () => {
    const head = headTags('charity', '/trending', undefined);
    expect(head).toContain('<link rel="manifest" href="/manifest.webmanifest" />');
    expect(head).toContain('<meta name="theme-color" content="#0f766e" />');
    expect(head).toContain('<link rel="apple-touch-icon" href="/icons/apple-touch-icon.png" />');
  });
});

describe('the share target without a service worker', () => {
  const share = (origin: string | undefined) => {
    const boundary = 'x-boundary';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n`),
      Buffer.from('Content-Type: image/png\r\n\r\n'),
      Buffer.from('not really a png'),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return t.client().request({
      method: 'POST',
      url: '/share-target',
      payload: body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...(origin ? { origin } : {}) },
    });
  };

  it("takes the system's post, Origin: null included, keeps nothing and sends the browser to the upload page", async () => {
    for (const origin of ['null', undefined, 'http://localhost:3000']) {
      const res = await share(origin);
      expect(res.statusCode, String(origin)).toBe(303);
      expect(res.headers.location).toBe('/upload?shared=failed');
    }
  });

  it('takes only a form', async () => {
    const res = await t.client().post('/share-target', { image: 'x' });
    expect(res.statusCode).toBe(415);
  });
});

describe('the service worker and the icons', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sw-test-'));
  let app: App;
  beforeAll(async () => {
    mkdirSync(path.join(dir, 'icons'));
    writeFileSync(path.join(dir, 'index.html'), '<html><head><!--app-head--></head></html>');
    writeFileSync(path.join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {});\n');
    writeFileSync(path.join(dir, 'icons/icon-192.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    app = Fastify({ logger: false }) as unknown as App;
    await spaRoutes(app, { config: loadConfig({ PORT: '3000' }) }, dir);
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves /sw.js as a script the browser checks again every time, read afresh from the build', async () => {
    const res = await app.inject({ url: '/sw.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(res.headers['cache-control']).toBe('no-cache');
    writeFileSync(path.join(dir, 'sw.js'), '// a new build\n');
    expect((await app.inject({ url: '/sw.js' })).body).toBe('// a new build\n');
  });

  it('serves the icons as PNG, and a missing one is a 404 rather than the app', async () => {
    const icon = await app.inject({ url: '/icons/icon-192.png' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toBe('image/png');
    expect((await app.inject({ url: '/icons/nope.png' })).statusCode).toBe(404);
  });
});
