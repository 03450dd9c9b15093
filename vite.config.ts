import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/**
 * Writes `.br` (brotli, quality 11) and `.gz` (gzip, level 9) beside every text asset of the build, where smaller.
 * The server sends them as they are (@fastify/static's `preCompressed`, server/src/modules/spa/spa.routes.ts): no
 * request pays for compressing, and each file gets the strongest setting, too slow to use per request.
 * index.html is left out: the server fills it in per request (and it is about 1 KB).
 */
function precompress(): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir;
      if (!dir) return;
      const files = Object.keys(bundle).filter((name) => /^assets\/.+\.(js|css|svg|json|txt)$/.test(name));
      await Promise.all(
        files.map(async (name) => {
          const file = path.join(dir, name);
          const raw = await readFile(file);
          const [br, gzipped] = await Promise.all([
            brotli(raw, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
                [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
              },
            }),
            gz(raw, { level: 9 }),
          ]);
          if (br.length < raw.length) await writeFile(`${file}.br`, br);
          if (gzipped.length < raw.length) await writeFile(`${file}.gz`, gzipped);
        }),
      );
    },
  };
}

/**
 * Every module the entry imports statically, directly or not: known once the module graph is (buildEnd), and read
 * while the chunks are cut, which comes after.
 */
function entryGraph(): { plugin: Plugin; has: (id: string) => boolean } {
  const ids = new Set<string>();
  const plugin: Plugin = {
    name: 'entry-graph',
    apply: 'build',
    buildEnd() {
      ids.clear();
      const stack = [...this.getModuleIds()].filter((id) => this.getModuleInfo(id)?.isEntry);
      for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
        if (ids.has(id)) continue;
        ids.add(id);
        stack.push(...(this.getModuleInfo(id)?.importedIds ?? []));
      }
    },
  };
  return { plugin, has: (id) => ids.has(id) };
}

const firstLoad = entryGraph();

// The web client: built into dist/web, which the server serves (server/src/modules/spa/spa.routes.ts).
export default defineConfig({
  root: 'web',
  plugins: [
    react(),
    precompress(),
    firstLoad.plugin,
    // The service worker, web/src/sw.ts, built to dist/web/sw.js with the list of files it precaches (docs/decisions.md
    // "Issue 27: the service worker and the manifest"). The server serves the manifest per tenant and the client
    // registers the worker itself (web/src/lib/pwa.ts), so the plugin writes neither; it never runs in development.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      injectRegister: false,
      manifest: false,
      injectManifest: {
        // The hashed build and the icons. index.html is not among them: the server fills it per request and tenant,
        // so the worker keeps the page the server sends for its own host instead (web/src/sw.ts).
        globPatterns: ['assets/**/*.{js,css,svg,png,woff2}', 'icons/*.png', 'favicon.svg'],
        globIgnores: ['**/*.br', '**/*.gz'],
        // The hashed names already say when a file changed.
        dontCacheBustURLsMatching: /^assets\//,
      },
      devOptions: { enabled: false },
    }),
  ],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    // Every browser of the es2022 target but Safari 16 knows modulepreload; Safari 16 just loads without it.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // The first load is three files: the libraries (React, the router, TanStack Query: they change only when a
        // library does, so a deploy leaves them cached), the app code the entry needs, and the bundler's runtime.
        // Left to itself the bundler cuts the shared code into several small chunks, and on HTTP/1.1 each costs a
        // connection or waits for one (six per host). Route chunks import what they share with the entry from it.
        codeSplitting: {
          groups: [
            // Only the libraries the first load needs: one that only a lazy screen uses (Chart.js, for the item
            // graphs) stays with that screen's chunk instead of growing every visitor's first download.
            { name: 'vendor', test: (id) => /[\\/]node_modules[\\/]/.test(id) && firstLoad.has(id), priority: 2 },
            { name: 'index', test: firstLoad.has, priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: 'http://localhost:3000', ws: true },
      '/demo-checkout': { target: 'http://localhost:3000' },
    },
  },
});
