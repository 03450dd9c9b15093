/**
 * The wall's read path at 1 thousand, 100 thousand and 1 million pictures (about 10 purchases each): the top and
 * trending lists, first page and deeper ones, and a profile, served by the real app on PostgreSQL with the page cache
 * off and on. The yardstick, measured in the same run beside each route, is a bare Fastify route serving the same
 * JSON: the route's own answer, captured once and served as an object through Fastify's normal serialization (no
 * plugins, no database). The ratio is the wall route's requests per second over the bare route's (issue 28: at
 * least 0.3 uncached and 0.6 cached at 1 million pictures, p99 flat from 1 thousand to 1 million). Load comes from
 * the autocannon CLI in its own process, so it does not share the server's event loop.
 *
 *   npm run bench:wall                      # 1K, 100K and 1M
 *   WALL_SIZES=1000,100000 npm run bench:wall
 *   BENCH_DATABASE_URL=postgres://... WALL_SECONDS=5 WALL_CONNECTIONS=10 WALL_CACHE_MS=1000 npm run bench:wall
 */
import { execFile } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Fastify from 'fastify';
import { loadConfig } from '../../server/src/config';
import { openDatabase } from '../../server/src/db/connection';
import { createServer } from '../../server/src/server';
import { freshPostgresDatabase } from '../../server/src/test/databases';
import { reportFigure } from '../figures';
import { fillWall } from './fill';

const run = promisify(execFile);
const AUTOCANNON = path.resolve(import.meta.dirname, '../../node_modules/.bin/autocannon');
const baseUrl = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const sizes = (process.env.WALL_SIZES ?? '1000,100000,1000000').split(',').map(Number);
const seconds = Number(process.env.WALL_SECONDS ?? 5);
const connections = Number(process.env.WALL_CONNECTIONS ?? 10);
const cacheMs = Number(process.env.WALL_CACHE_MS ?? 1000);
/** The size the goals are judged at. */
const GOAL_SIZE = 1_000_000;

interface Measure {
  median: number;
  p99: number;
  rps: number;
  bytes: number;
}

async function measure(url: string): Promise<Measure> {
  // A short warm-up, so caches and the JIT are in the same state for every route.
  await run(AUTOCANNON, ['-c', String(connections), '-d', '1', '-j', url], { maxBuffer: 1 << 24 });
  const { stdout } = await run(AUTOCANNON, ['-c', String(connections), '-d', String(seconds), '-j', url], {
    maxBuffer: 1 << 24,
  });
  const r = JSON.parse(stdout) as {
    latency: { p50: number; p99: number };
    requests: { average: number; total: number };
    throughput: { total: number };
    non2xx: number;
    errors: number;
  };
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  const bytes = r.requests.total ? Math.round(r.throughput.total / r.requests.total) : 0;
  return { median: r.latency.p50, p99: r.latency.p99, rps: r.requests.average, bytes };
}

/** A bare Fastify instance, no plugins: each route answers one captured page, serialized again for every request. */
async function bareFastify(pages: unknown[]): Promise<{ urls: string[]; close(): Promise<void> }> {
  const bare = Fastify({ logger: false });
  pages.forEach((page, i) => bare.get(`/page/${i}`, async () => page));
  const address = await bare.listen({ port: 0, host: '127.0.0.1' });
  return { urls: pages.map((_, i) => `${address}/page/${i}`), close: () => bare.close() };
}

async function wallServer(url: string, wallCacheMs: number) {
  const config = loadConfig({ PORT: '0' }, { databaseUrl: url, serveWeb: false, seedDemo: false, wallCacheMs });
  const server = await createServer(config, { logger: false });
  const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
  return { address, close: () => server.close() };
}

const ROUTES = [
  ['top, first page', '/api/pictures?sort=top&offset=0&limit=20'],
  ['top, offset 1000', '/api/pictures?sort=top&offset=1000&limit=20'],
  ['trending, first page', '/api/pictures?sort=trending&offset=0&limit=20'],
  ['trending, offset 200 (exact)', '/api/pictures?sort=trending&offset=200&limit=20'],
  ['trending, offset 1000', '/api/pictures?sort=trending&offset=1000&limit=20'],
  ['profile, first page', '/api/pictures?sort=profile&authorId=7&offset=0&limit=20'],
] as const;

interface Row {
  size: number;
  route: string;
  bare: Measure;
  off: Measure;
  on: Measure;
}

const rows: Row[] = [];
const rerun = `WALL_SIZES=${sizes.join(',')} WALL_SECONDS=${seconds} WALL_CONNECTIONS=${connections} npm run bench:wall`;
console.log(
  `wall bench: ${os.cpus().length} cores, ${connections} connections, ${seconds} s a route, load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
for (const size of sizes) {
  const db = await freshPostgresDatabase(baseUrl);
  try {
    const migrated = await openDatabase({ databaseUrl: db.url });
    await migrated.close();
    const started = Date.now();
    await fillWall(db.url, size);
    console.log(`${size.toLocaleString('en')} pictures filled in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    // Uncached first: every request reads the database. Each route's answer, captured once, is the bare route's.
    const uncached = await wallServer(db.url, 0);
    const measured: Omit<Row, 'on'>[] = [];
    try {
      const pages = await Promise.all(
        ROUTES.map(async ([, route]) => (await fetch(`${uncached.address}${route}`)).json()),
      );
      const bare = await bareFastify(pages);
      try {
        for (const [i, [name, route]] of ROUTES.entries()) {
          const b = await measure(bare.urls[i]!);
          const off = await measure(`${uncached.address}${route}`);
          measured.push({ size, route: name, bare: b, off });
          console.log(`${size} ${name}: bare ${fmt(b)}; uncached ${fmt(off)}, ratio ${(off.rps / b.rps).toFixed(2)}`);
        }
      } finally {
        await bare.close();
      }
    } finally {
      await uncached.close();
    }
    // Then as deployed, with the page cache on.
    const cached = await wallServer(db.url, cacheMs);
    try {
      for (const [i, [name, route]] of ROUTES.entries()) {
        const on = await measure(`${cached.address}${route}`);
        rows.push({ ...measured[i]!, on });
        console.log(`${size} ${name}: cached ${fmt(on)}, ratio ${(on.rps / measured[i]!.bare.rps).toFixed(2)}`);
      }
    } finally {
      await cached.close();
    }
  } finally {
    await db.drop();
  }
}

function fmt(m: Measure): string {
  return `${Math.round(m.rps).toLocaleString('en')} req/s, median ${m.median} ms, p99 ${m.p99} ms`;
}

const ratio = (m: Measure, bare: Measure) => m.rps / bare.rps;
console.log(
  [
    '',
    `| pictures | route | KB | bare req/s | uncached req/s | median ms | p99 ms | ratio | cached (${cacheMs} ms) req/s | p99 ms | ratio |`,
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows
      .map((r) =>
        [
          r.size.toLocaleString('en'),
          r.route,
          (r.bare.bytes / 1024).toFixed(1),
          Math.round(r.bare.rps).toLocaleString('en'),
          Math.round(r.off.rps).toLocaleString('en'),
          r.off.median,
          r.off.p99,
          ratio(r.off, r.bare).toFixed(2),
          Math.round(r.on.rps).toLocaleString('en'),
          r.on.p99,
          ratio(r.on, r.bare).toFixed(2),
        ].join(' | '),
      )
      .map((line) => `| ${line} |`),
    '',
    `Load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
    `Rerun: ${rerun}`,
  ].join('\n'),
);

// For bench:all: per size, the worst of the six routes (the lowest ratio, the highest p99).
for (const size of sizes) {
  const of = rows.filter((r) => r.size === size);
  if (of.length === 0) continue;
  const n = size.toLocaleString('en');
  const judged = size === GOAL_SIZE;
  reportFigure({
    bench: 'bench:wall',
    figure: `wall page uncached at ${n} pictures, worst of ${of.length} routes, ratio to bare Fastify (same JSON)`,
    value: round(Math.min(...of.map((r) => ratio(r.off, r.bare)))),
    unit: '×',
    ...(judged ? { goal: { atLeast: 0.3 } } : {}),
    rerun,
  });
  reportFigure({
    bench: 'bench:wall',
    figure: `wall page cached (${cacheMs} ms) at ${n} pictures, worst of ${of.length} routes, ratio to bare Fastify`,
    value: round(Math.min(...of.map((r) => ratio(r.on, r.bare)))),
    unit: '×',
    ...(judged ? { goal: { atLeast: 0.6 } } : {}),
    rerun,
  });
  reportFigure({
    bench: 'bench:wall',
    figure: `wall page uncached p99 at ${n} pictures, worst of ${of.length} routes`,
    value: Math.max(...of.map((r) => r.off.p99)),
    unit: 'ms',
    rerun,
  });
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}
