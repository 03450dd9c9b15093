import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import type { App } from '../../context';
import { registerCompression } from '../../http/compression';
import { WALL_SIZES } from '../../../../common/wall';
import { spaRoutes } from './spa.routes';

/** A built client of our own (no real build needed): index.html, one script with its .br and .gz, one without. */
const dir = mkdtempSync(path.join(tmpdir(), 'spa-test-'));
const script = 'console.log("the wall");\n'.repeat(200);
let app: App;

beforeAll(async () => {
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><!--app-head--></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(path.join(dir, 'assets/index-abc123.js'), script);
  writeFileSync(path.join(dir, 'assets/index-abc123.js.br'), brotliCompressSync(script));
  writeFileSync(path.join(dir, 'assets/index-abc123.js.gz'), gzipSync(script));
  writeFileSync(path.join(dir, 'assets/plain-def456.js'), script);
  app = Fastify({ logger: false }) as unknown as App;
  await registerCompression(app);
  // The wall's first batch as the pictures route answers it: the top wall's picture has its variants, the trending
  // wall's is from before them, and the wall of a `slow` tenant answers too late for the page to wait.
  app.get('/api/pictures', async (req) => {
    const { sort } = req.query as { sort: string };
    if (req.headers.host === 'slow.test') await new Promise((resolve) => setTimeout(resolve, 1_000));
    const variants = (format: string) => `/images/a-360.${format} 360w, /images/a-720.${format} 720w`;
    const sources = { avif: variants('avif'), webp: variants('webp'), jpeg: variants('jpg') };
    return sort === 'top'
      ? [{ id: 1, url: '/images/a.jpg', sources }]
      : [{ id: 2, url: '/images/b.jpg', sources: null }];
  });
  app.get('/api/list', async () => ({ items: Array.from({ length: 200 }, (_, i) => ({ id: i, title: 'A picture' })) }));
  await spaRoutes(app, { config: loadConfig({ PORT: '3000' }) }, dir);
});

afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  app.inject({ url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

describe('the built client', () => {
  it('sends a hashed script brotli-compressed as built, cached for a year and never revalidated', async () => {
    const res = await get('/assets/index-abc123.js', 'gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(script);
  });

  it('sends the gzip file to a browser without brotli, and the plain file to one that takes neither', async () => {
    expect((await get('/assets/index-abc123.js', 'gzip')).headers['content-encoding']).toBe('gzip');
    const plain = await get('/assets/index-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('compresses a script the build left without its .br on the fly rather than sending it as it is', async () => {
    const res = await get('/assets/plain-def456.js', 'br');
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(script);
  });

  it('asks the browser to check the page itself every time', async () => {
    const res = await get('/');
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
  });
});

describe('the first batch of a wall, named in the page', () => {
  const preloadOf = async (url: string) =>
    /<link rel="preload" href="([^"]+)" as="fetch" crossorigin \/>/.exec((await get(url)).body)?.[1];

  it('is the top wall on / and the trending wall on /trending, as the wall asks for it', async () => {
    expect(await preloadOf('/')).toBe('/api/pictures?sort=top&amp;offset=0&amp;limit=3');
    expect(await preloadOf('/trending')).toBe('/api/pictures?sort=trending&amp;offset=0&amp;limit=3');
  });

  const imageHintOf = async (url: string, host?: string) =>
    /<link rel="preload" as="image"[^>]*\/>/.exec((await app.inject({ url, headers: host ? { host } : {} })).body)?.[0];

  it("brings its first picture too, as the card would choose it: AVIF at the card's sizes, or the one old JPEG", async () => {
    expect(await imageHintOf('/')).toBe(
      '<link rel="preload" as="image" type="image/avif" imagesrcset="/images/a-360.avif 360w, /images/a-720.avif 720w" ' +
        `imagesizes="${WALL_SIZES}" fetchpriority="high" />`,
    );
    expect(await imageHintOf('/trending')).toBe(
      '<link rel="preload" as="image" href="/images/b.jpg" fetchpriority="high" />',
    );
    expect(await imageHintOf('/profile/1')).toBeUndefined();
  });

  it('goes without the picture rather than wait for a slow wall', async () => {
    const started = Date.now();
    expect(await imageHintOf('/', 'slow.test')).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('is left out where the wall starts elsewhere or is not shown', async () => {
    expect(await preloadOf('/?index=4')).toBeUndefined();
    expect(await preloadOf('/?img=12')).toBeUndefined();
    expect(await preloadOf('/profile/1')).toBeUndefined();
    expect(await preloadOf('/upload')).toBeUndefined();
  });
});

describe('answers', () => {
  it('are compressed with brotli when the browser takes it, gzip otherwise, and sent plain when asked plain', async () => {
    const br = await get('/api/list', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString()).items).toHaveLength(200);
    expect((await get('/api/list', 'gzip')).headers['content-encoding']).toBe('gzip');
    const plain = await get('/api/list');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json().items).toHaveLength(200);
  });
});
