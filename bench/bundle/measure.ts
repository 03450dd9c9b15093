/**
 * The JavaScript a visitor downloads before the wall shows: the entry chunk (which holds the wall since issue 9), the
 * wall route's chunk if it has one, and every chunk they import statically, gzipped. Reads Vite's manifest from
 * dist/web (building first with --build or when missing).
 *
 *   npx tsx bench/bundle/measure.ts [--build]
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { reportFigure } from '../figures';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

const root = path.resolve(import.meta.dirname, '../..');
const outDir = path.join(root, 'dist/web');
const manifestFile = path.join(outDir, '.vite/manifest.json');
const WALL_ROUTE = 'src/pages/WallPage.tsx';
/** Issue 9 "The wall must load fast" (it was 150 KB in issue "Web client"). */
const GOAL_KB = 100;

if (process.argv.includes('--build') || !existsSync(manifestFile)) {
  const { build } = await import('vite');
  await build({ configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' });
}

const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
if (!entryKey) throw new Error('no entry in the Vite manifest');

/** A chunk and its static imports, each once. */
function closure(keys: string[], seen = new Set<string>()): Set<string> {
  for (const key of keys) {
    if (seen.has(key) || !manifest[key]) continue;
    seen.add(key);
    closure(manifest[key]!.imports ?? [], seen);
  }
  return seen;
}

const chunks = closure([entryKey, ...(manifest[WALL_ROUTE] ? [WALL_ROUTE] : [])]);
const rows = [...chunks].map((key) => {
  const file = manifest[key]!.file;
  const bytes = readFileSync(path.join(outDir, file));
  return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
});
const css = [...chunks].flatMap((key) => manifest[key]!.css ?? []);
const cssGzip = css.reduce((sum, f) => sum + gzipSync(readFileSync(path.join(outDir, f)), { level: 9 }).length, 0);

const kb = (n: number) => (n / 1024).toFixed(1);
for (const r of rows)
  console.log(`${r.file.padEnd(44)} ${kb(r.raw).padStart(8)} KB raw ${kb(r.gzip).padStart(7)} KB gzip`);
const total = rows.reduce((s, r) => s + r.gzip, 0);
console.log(`\nWall route initial JS: ${kb(total)} KB gzipped (goal ≤ ${GOAL_KB} KB); CSS ${kb(cssGzip)} KB gzipped.`);
console.log('Rerun: npx tsx bench/bundle/measure.ts --build');
reportFigure({
  bench: 'bench:bundle',
  figure: 'wall route initial JavaScript, gzipped',
  value: Number(kb(total)),
  unit: 'KB',
  goal: { atMost: GOAL_KB },
  rerun: 'npx tsx bench/bundle/measure.ts --build',
});
if (total > GOAL_KB * 1024) process.exitCode = 1;
