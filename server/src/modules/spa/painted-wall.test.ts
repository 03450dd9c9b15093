import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import type { App } from '../../context';
import { BOOT_SCRIPT, BOOT_SCRIPT_HASH } from '../../http/page-boot';
import { spaRoutes } from './spa.routes';

// The wall painted by the server (docs/decisions.md "Issue 28: the wall painted by the server").

/** A page as Vite builds it: the entry script and its preloads in the head, an empty root. */
const TEMPLATE = `<!doctype html>
<html lang="en">
  <head>
    <!--app-head-->
    <script type="module" crossorigin src="/assets/index-Abc_1.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/rolldown-runtime-X.js">
    <link rel="modulepreload" crossorigin href="/assets/vendor-Y.js">
    <link rel="stylesheet" crossorigin href="/assets/index-Z.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;

const TITLE = '<script>alert("owned")</script> & $& co';
const NAME = `o'brien"<i>`;
const variants = (format: string) => `/images/a-360.${format} 360w, /images/a-720.${format} 720w`;
const FIRST = {
  id: 41,
  authorId: 7,
  authorName: NAME,
  authorProfileUrl: null,
  url: '/images/a.jpg',
  title: TITLE,
  width: 720,
  height: 900,
  sources: { avif: variants('avif'), webp: variants('webp'), jpeg: variants('jpg') },
  commentCount: 2,
  totalAmount: 12_345,
};

const dir = mkdtempSync(path.join(tmpdir(), 'painted-wall-test-'));
let app: App;
let batch: unknown[] = [FIRST, { ...FIRST, id: 42, title: 'second' }];

beforeAll(async () => {
  writeFileSync(path.join(dir, 'index.html'), TEMPLATE);
  app = Fastify({ logger: false }) as unknown as App;
  app.get('/api/pictures', async () => batch);
  await spaRoutes(app, { config: loadConfig({ PORT: '3000' }) }, dir);
});

afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

const page = async (url: string, cookie?: string) =>
  (await app.inject({ url, headers: cookie ? { cookie } : {} })).body;

const root = (html: string) => /<div id="root">([\s\S]*?)<\/div><script type="application\/json"/.exec(html)?.[1];

describe('the page of / for a visitor', () => {
  it("holds the shell and the first card, with the card's picture as the card draws it", async () => {
    const html = await page('/');
    const painted = root(html)!;
    expect(painted).toMatch(/^<div class="shell" aria-disabled="true"><header class="header">/);
    expect(painted).toContain('<h1 id="wall-title" class="wall-page__title">Top wall</h1>');
    expect(painted).toContain('data-picture-id="41"');
    expect(painted).toContain(`<source type="image/avif" srcset="${variants('avif')}"`);
    expect(painted).toMatch(
      /<img src="\/images\/a\.jpg" srcset="\/images\/a-360\.jpg 360w, \/images\/a-720\.jpg 720w" sizes="[^"]+" alt="[^"]*" width="720" height="900" loading="eager" fetchpriority="high">/,
    );
    expect(painted).toContain('<span class="price-tag__amount">$123.45</span>');
    expect(painted).toContain('aria-label="2 comments"');
    // A second picture in the batch: the next arrow is there, as on the client's card.
    expect(painted).toContain('aria-label="Next picture"');
    // Only the first card is painted.
    expect(painted.match(/data-testid="picture-card"/g)).toHaveLength(1);
    // No whitespace between elements (React writes none).
    expect(painted).not.toMatch(/>\s+</);
    // The picture itself is still named in the head, ahead of everything in the body.
    expect(html).toMatch(/<link rel="preload" as="image" type="image\/avif" imagesrcset="[^"]+-360\.avif/);
  });

  it('escapes every user-written string, in text and in attributes, and in the batch it carries', async () => {
    const html = await page('/');
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<i>');
    const painted = root(html)!;
    const title = '&lt;script&gt;alert(&quot;owned&quot;)&lt;/script&gt; &amp; $&amp; co';
    expect(painted).toContain(`alt="${title}"`);
    expect(painted).toContain(`aria-label="${title}, place 1"`);
    expect(painted).toContain('<span class="author-link__name">o&#39;brien&quot;&lt;i&gt;</span>');
    const json = /<script type="application\/json" id="wall-first-batch">([^<]*)<\/script>/.exec(html)![1]!;
    expect(json).toContain('\\u003cscript>');
    expect(JSON.parse(json)).toEqual(batch);
  });

  it('asks for no script before the picture: the boot script names them, and the CSP allows it by its hash', async () => {
    const html = await page('/');
    expect(html).not.toContain('<script type="module"');
    expect(html).not.toContain('rel="modulepreload"');
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/index-Z.css">');
    const boot = /<script data-app="([^"]+)" data-preload="([^"]+)">([\s\S]*?)<\/script>/.exec(html)!;
    expect(boot[1]).toBe('/assets/index-Abc_1.js');
    expect(boot[2]).toBe('/assets/rolldown-runtime-X.js /assets/vendor-Y.js');
    expect(boot[3]).toBe(BOOT_SCRIPT);
    expect(`'sha256-${createHash('sha256').update(boot[3]!).digest('base64')}'`).toBe(BOOT_SCRIPT_HASH);
  });

  it('draws one picture without its arrow, and a picture from before variants with its one file', async () => {
    batch = [{ ...FIRST, sources: null, commentCount: 0 }];
    try {
      const painted = root(await page('/'))!;
      expect(painted).not.toContain('<source');
      expect(painted).toMatch(/<img src="\/images\/a\.jpg" alt="[^"]*" width="720" height="900" loading="eager"/);
      expect(painted).not.toContain('Next picture');
      expect(painted).not.toContain('comment-count');
    } finally {
      batch = [FIRST, { ...FIRST, id: 42, title: 'second' }];
    }
  });
});

describe('pages that are not painted', () => {
  const unpainted = (html: string) => {
    expect(html).toContain('<div id="root"></div>');
    expect(html).toContain('<script type="module" crossorigin src="/assets/index-Abc_1.js"></script>');
    expect(html).not.toContain('wall-first-batch');
  };

  it('a request with a session, every other path, and / starting elsewhere', async () => {
    unpainted(await page('/', 'theme=x; sid=abc'));
    for (const url of ['/trending', '/upload', '/profile/7', '/?index=2', '/?img=41']) unpainted(await page(url));
  });

  it('an empty wall', async () => {
    batch = [];
    try {
      unpainted(await page('/'));
    } finally {
      batch = [FIRST, { ...FIRST, id: 42, title: 'second' }];
    }
  });
});
