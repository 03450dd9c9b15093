import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../context';
import { publicScope } from '../../http/authorization';
import { SESSION_COOKIE } from '../../http/auth';
import { adminConsoleCsp, ADMIN_CONSOLE_PATHS } from '../../http/csp';
import { BOOT_SCRIPT } from '../../http/page-boot';
import { isCashTenant } from '../../http/tenant';
import { brandOf, pageTitle, type Tenant } from '../../../../common/brand';
import type { Picture } from '../../../../common/api/pictures';
import { FIRST_BATCH, WALL_SIZES, wallBatchPath } from '../../../../common/wall';
import { SHARE_TARGET_PATH, webManifest } from './manifest';
import { batchJson, escapeHtml, paintWall } from './painted-wall';

const WEB_DIR = path.resolve(import.meta.dirname, '../../../../dist/web');
/** Where the head tags go in the built index.html (web/index.html carries this comment). */
const HEAD_MARK = '<!--app-head-->';
/** Paths that are never a page of the client: a miss under them is a 404, not the app (images: issue 22, item 21). */
const NOT_THE_APP = /^\/(api(\/|$)|metrics$|demo-checkout|images(\/|$)|icons(\/|$)|sw\.js$|manifest\.webmanifest$)/;
/** Where a share that no service worker took is sent: the upload page says to open the app once (docs/decisions.md). */
export const SHARE_FAILED_URL = '/upload?shared=failed';

/**
 * The first batch of the top or trending wall, when the page shows it from the top (no `img` or `index`): named in
 * the page so the browser fetches it while the scripts load, and the wall finds it there (common/wall.ts).
 */
export function firstWallBatch(pathname: string, search: URLSearchParams): string | undefined {
  if (search.has('img') || search.has('index')) return undefined;
  const sort = pathname === '/' ? 'top' : /^\/trending\/?$/.test(pathname) ? 'trending' : undefined;
  return sort && wallBatchPath({ sort, offset: 0, limit: FIRST_BATCH });
}

/** How long a page waits for its wall's first picture to name it; past that the page goes without the hint. */
const FIRST_PICTURE_WAIT_MS = 150;

/**
 * A wall's first batch, read through the wall's own route (and its page cache), so the page can have the browser
 * fetch its first picture while the scripts load, or paint it (docs/performance.md, "Wall load"). Asked as a visitor:
 * for a signed-in viewer who hid that picture the hint is wasted.
 */
async function firstBatch(app: App, batchPath: string, host: string | undefined): Promise<Picture[] | undefined> {
  const answer = app
    .inject({ method: 'GET', url: batchPath, headers: host ? { host } : {} })
    .then((res) => (res.statusCode === 200 ? (res.json() as Picture[]) : undefined))
    .catch(() => undefined);
  const late = new Promise<undefined>((resolve) => void setTimeout(resolve, FIRST_PICTURE_WAIT_MS));
  return Promise.race([answer, late]);
}

/**
 * The preload of a wall's first picture, as the card's `<picture>` would choose it (the same `srcset` and `sizes`,
 * AVIF first: a browser without AVIF skips the hint by its type and loads as the card says).
 */
export function pictureHint(picture: Pick<Picture, 'url' | 'sources'>): string {
  if (!picture.sources) {
    return `<link rel="preload" as="image" href="${escapeHtml(picture.url)}" fetchpriority="high" />`;
  }
  return (
    `<link rel="preload" as="image" type="image/avif" imagesrcset="${escapeHtml(picture.sources.avif)}" ` +
    `imagesizes="${escapeHtml(WALL_SIZES)}" fetchpriority="high" />`
  );
}

/** The head tags of one page: set in the HTML itself so crawlers and link previews see the tenant's brand. */
export function headTags(
  tenant: Tenant,
  pathname: string,
  googleClientId: string | undefined,
  preload?: string,
  picture?: Pick<Picture, 'url' | 'sources'>,
): string {
  const brand = brandOf(tenant);
  const tags = [
    `<title>${escapeHtml(pageTitle(tenant, pathname))}</title>`,
    `<meta name="description" content="${escapeHtml(brand.description)}" />`,
    `<meta name="tenant" content="${tenant}" />`,
    // The installable app (docs/product.md#push): the tenant's manifest, its colour, and Apple's home-screen icon.
    `<meta name="theme-color" content="${escapeHtml(brand.themeColor)}" />`,
    '<link rel="manifest" href="/manifest.webmanifest" />',
    '<link rel="apple-touch-icon" href="/icons/apple-touch-icon.png" />',
  ];
  if (googleClientId) tags.push(`<meta name="google-client-id" content="${escapeHtml(googleClientId)}" />`);
  // crossorigin: the client's fetch() is a CORS-mode request, and a preload is used only by a request of its mode.
  if (preload) tags.push(`<link rel="preload" href="${escapeHtml(preload)}" as="fetch" crossorigin />`);
  if (picture) tags.push(pictureHint(picture));
  return tags.join('\n    ');
}

/** The built page's module script and the scripts it preloads, as Vite writes them into index.html. */
const MODULE_SCRIPT = /\s*<script type="module" crossorigin src="([^"]+)"><\/script>/g;
const MODULE_PRELOAD = /\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g;
const ROOT = '<div id="root"></div>';

/**
 * The built page without its scripts, for the wall painted by the server (docs/decisions.md "Issue 28: the wall
 * painted by the server"): the boot script asks for them once the first picture is on screen. Undefined when the
 * build's page is not of the expected shape (one module script, the root element): then nothing is painted.
 */
export function paintableTemplate(html: string): { page: string; app: string; preload: string[] } | undefined {
  const scripts = [...html.matchAll(MODULE_SCRIPT)].map((m) => m[1]!);
  const preload = [...html.matchAll(MODULE_PRELOAD)].map((m) => m[1]!);
  if (scripts.length !== 1 || html.split(ROOT).length !== 2) return undefined;
  return { page: html.replace(MODULE_SCRIPT, '').replace(MODULE_PRELOAD, ''), app: scripts[0]!, preload };
}

/** Whether a page request carries a session (signed in, or was): such a visitor gets the page unpainted. */
const hasSession = (req: FastifyRequest) =>
  (req.headers.cookie ?? '').split(';').some((c) => c.trim().startsWith(`${SESSION_COOKIE}=`));

/**
 * Serves the built single-page app: hashed assets with a year-long immutable cache, compressed at build time, and
 * index.html (branded per tenant, never cached without asking) for every other page path, so a deep link or a reload
 * lands in the client router.
 */
export async function spaRoutes(app: App, ctx: Pick<AppContext, 'config'>, webDir = WEB_DIR): Promise<void> {
  if (!ctx.config.serveWeb) return;
  const indexFile = path.join(webDir, 'index.html');
  let template: string | undefined;
  let paintable: ReturnType<typeof paintableTemplate>;
  const readTemplate = () => {
    // Read once: the build does not change under a running server (npm start rebuilds before starting).
    if (template === undefined && fs.existsSync(indexFile)) {
      template = fs.readFileSync(indexFile, 'utf8');
      paintable = paintableTemplate(template);
    }
    return template;
  };

  const assets = path.join(webDir, 'assets');
  if (fs.existsSync(assets)) {
    await publicScope(app, async (files) => {
      await files.register(fastifyStatic, {
        root: assets,
        prefix: '/assets/',
        wildcard: true,
        index: false,
        immutable: true,
        maxAge: '365d',
        // The build writes .br and .gz beside each file (vite.config.ts): sent as they are.
        preCompressed: true,
      });
    });
  }

  app.get('/favicon.svg', { schema: { hide: true }, config: { auth: 'public' } }, async (_req, reply) => {
    const file = path.join(webDir, 'favicon.svg');
    if (!fs.existsSync(file)) return reply.code(404).send({ message: 'Not found.' });
    return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(fs.readFileSync(file));
  });

  // The installable app (docs/product.md#push, docs/decisions.md "Issue 27: the service worker and the manifest").
  app.get('/manifest.webmanifest', { schema: { hide: true }, config: { auth: 'public' } }, async (req, reply) => {
    const tenant: Tenant = isCashTenant(req, ctx) ? 'cash' : 'charity';
    return reply
      .type('application/manifest+json')
      .header('cache-control', 'no-cache')
      .send(JSON.stringify(webManifest(tenant)));
  });

  const icons = path.join(webDir, 'icons');
  if (fs.existsSync(icons)) {
    await publicScope(app, async (files) => {
      // Named without a hash (the manifest points at them): a day's cache, then the browser asks again.
      await files.register(fastifyStatic, {
        root: icons,
        prefix: '/icons/',
        index: false,
        maxAge: '1d',
        decorateReply: false,
      });
    });
  }

  // The service worker, read on every request (a few KB): a new build's worker is what the browser finds when it
  // checks, never a copy an HTTP cache kept (the browser checks /sw.js itself on every navigation).
  app.get('/sw.js', { schema: { hide: true }, config: { auth: 'public' } }, async (_req, reply) => {
    const file = path.join(webDir, 'sw.js');
    if (!fs.existsSync(file)) return reply.code(404).send({ message: 'Not found.' });
    return reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(fs.readFileSync(file));
  });

  // The share target when no service worker took the share (the app was never opened on this device, or its worker
  // is gone): nothing is kept or moved; the upload page says to open the app once and share again. The system posts
  // it with `Origin: null`, so it skips the Origin check: it changes nothing.
  app.post(
    SHARE_TARGET_PATH,
    {
      schema: { hide: true, consumes: ['multipart/form-data'] },
      config: { auth: 'public', skipOriginCheck: true },
    },
    async (_req, reply) => reply.header('cache-control', 'no-store').redirect(SHARE_FAILED_URL, 303),
  );

  const page = async (req: FastifyRequest, reply: FastifyReply) => {
    const [pathname = '/', query = ''] = req.url.split('?');
    if (NOT_THE_APP.test(pathname)) return reply.code(404).send({ message: 'Not found.' });
    const html = readTemplate();
    if (html === undefined) {
      return reply.code(503).type('text/plain').send('The web client is not built yet: run `npm run build`.\n');
    }
    const tenant: Tenant = isCashTenant(req, ctx) ? 'cash' : 'charity';
    const batch = firstWallBatch(pathname, new URLSearchParams(query));
    const pictures = batch ? await firstBatch(app, batch, req.headers.host) : undefined;
    const picture = pictures?.[0];
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache');
    // The top wall for a visitor: painted in the page, its first batch in it too (docs/decisions.md "Issue 28: the
    // wall painted by the server"). A signed-in viewer's shell and wall differ from the visitor's: not painted.
    if (paintable && picture && pathname === '/' && !hasSession(req)) {
      const head = headTags(tenant, pathname, ctx.config.google?.clientId, undefined, picture);
      const boot =
        `<script type="application/json" id="wall-first-batch">${batchJson(pictures)}</script>` +
        `<script data-app="${escapeHtml(paintable.app)}" data-preload="${escapeHtml(paintable.preload.join(' '))}">` +
        `${BOOT_SCRIPT}</script>`;
      const page = paintable.page
        .replace(HEAD_MARK, () => head)
        .replace(ROOT, () => `<div id="root">${paintWall(tenant, pictures)}</div>${boot}`);
      return reply.send(page);
    }
    return reply.send(
      html.replace(HEAD_MARK, () => headTags(tenant, pathname, ctx.config.google?.clientId, batch, picture)),
    );
  };

  // The admin console's page carries a policy that lets its free fetch reach any http(s) URL (http/csp.ts).
  const adminPolicy = adminConsoleCsp(ctx.config.imageBaseUrl);
  for (const url of ADMIN_CONSOLE_PATHS) {
    app.get(
      url,
      { schema: { hide: true }, config: { auth: 'public' }, helmet: { contentSecurityPolicy: adminPolicy } },
      page,
    );
  }
  app.get('/*', { schema: { hide: true }, config: { auth: 'public' } }, page);
}
