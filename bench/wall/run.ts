/**
 * The wall's read path at 1 thousand, 100 thousand and 1 million pictures (about 10 purchases each): the top and
 * trending lists, first page and a deeper one, served by the real app on PostgreSQL, beside a bare Fastify route
 * measured in the same run. Load comes from the autocannon CLI in its own process, so it does not share the
 * server's event loop.
 *
 *   npm run bench:wall                      # 1K, 100K and 1M
 *   WALL_SIZES=1000,100000 npm run bench:wall
 *   BENCH_DATABASE_URL=postgres://... npm run bench:wall
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
import { fillWall } from './fill';

const run = promisify(execFile);
const AUTOCANNON = path.resolve(import.meta.dirname, '../../node_modules/.bin/autocannon');
const baseUrl = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const sizes = (process.env.WALL_SIZES ?? '1000,100000,1000000').split(',').map(Number);
const seconds = Number(process.env.WALL_SECONDS ?? 5);
const connections = Number(process.env.WALL_CONNECTIONS ?? 10);

interface Measure {
  median: number;
  p99: number;
  rps: number;
}

async function measure(url: string): Promise<Measure> {
  // A short warm-up, so caches and the JIT are in the same state for every route.
  await run(AUTOCANNON, ['-c', String(connections), '-d', '1', '-j', url], { maxBuffer: 1 << 24 });
  const { stdout } = await run(AUTOCANNON, ['-c', String(connections), '-d', String(seconds), '-j', url], {
    maxBuffer: 1 << 24,
  });
  const r = JSON.parse(stdout) as {
    latency: { p50: number; p99: number };
    requests: { average: number };
    non2xx: number;
    errors: number;
  };
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  return { median: r.latency.p50, p99: r.latency.p99, rps: r.requests.average };
}

async function bareFastify(): Promise<{ url: string; close(): Promise<void> }> {
  const bare = Fastify({ logger: false });
  bare.get('/ping', async () => ({ ok: true }));
  const address = await bare.listen({ port: 0, host: '127.0.0.1' });
  return { url: `${address}/ping`, close: () => bare.close() };
}

const ROUTES = [
  ['top, first page', '/api/pictures?sort=top&offset=0&limit=20'],
  ['top, offset 1000', '/api/pictures?sort=top&offset=1000&limit=20'],
  ['trending, first page', '/api/pictures?sort=trending&offset=0&limit=20'],
  ['trending, offset 200 (exact)', '/api/pictures?sort=trending&offset=200&limit=20'],
  ['trending, offset 1000', '/api/pictures?sort=trending&offset=1000&limit=20'],
  ['profile, first page', '/api/pictures?sort=profile&authorId=7&offset=0&limit=20'],
] as const;

const rows: string[] = [];
const bare = await bareFastify();
console.log(`wall bench: ${os.cpus().length} cores, ${connections} connections, ${seconds} s a route`);
for (const size of sizes) {
  const db = await freshPostgresDatabase(baseUrl);
  try {
    const migrated = await openDatabase({ databaseUrl: db.url });
    await migrated.close();
    const started = Date.now();
    await fillWall(db.url, size);
    console.log(`${size} pictures filled in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const ping = await measure(bare.url);
    rows.push(`| ${size.toLocaleString('en')} | bare Fastify /ping | – | ${fmt(ping)} | 1.0 |`);
    // Uncached first: every request ranks in the database. Then as deployed, with the page cache on.
    for (const cacheMs of [0, 1000]) {
      const config = loadConfig(
        { PORT: '0' },
        { databaseUrl: db.url, serveWeb: false, seedDemo: false, wallCacheMs: cacheMs },
      );
      const server = await createServer(config, { logger: false });
      const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
      try {
        for (const [name, route] of ROUTES) {
          const m = await measure(`${address}${route}`);
          // Medians of a few milliseconds are whole numbers in autocannon; throughput gives the finer ratio of cost.
          const ratio = (ping.rps / m.rps).toFixed(1);
          const cache = cacheMs ? `${cacheMs} ms` : 'off';
          rows.push(`| ${size.toLocaleString('en')} | ${name} | ${cache} | ${fmt(m)} | ${ratio} |`);
          console.log(rows.at(-1));
        }
      } finally {
        await server.close();
      }
    }
  } finally {
    await db.drop();
  }
}
await bare.close();

function fmt(m: Measure): string {
  return `${m.median} | ${m.p99} | ${Math.round(m.rps).toLocaleString('en')}`;
}

console.log(
  [
    '',
    '| pictures | route | page cache | median ms | p99 ms | req/s | cost × bare |',
    '|---:|---|---|---:|---:|---:|---:|',
    ...rows,
    '',
    `Rerun: WALL_SIZES=${sizes.join(',')} npm run bench:wall`,
  ].join('\n'),
);
