/**
 * What the cluster serves on this machine (docs/scaling.md, "Measured"): `npm run cluster`'s topology (HAProxy →
 * instances → PgBouncer → PostgreSQL primary with a streaming replica, Redis) with one instance and with three, driven
 * through HAProxy: wall pages a second (the top wall's first page, as deployed with its 1 s page cache) and spends a
 * second (picture funds by CLUSTER_FUNDERS users on 8 pictures of 8 authors, each under its own Idempotency-Key), with the replica's replay lag
 * sampled on the primary (`pg_stat_replication.replay_lag`) while the spends run. Every process shares this machine's
 * cores, so three instances here show the cost of the hops, not the gain of three machines.
 *
 *   npm run bench:cluster
 *   CLUSTER_SIZES=1,3 CLUSTER_SECONDS=10 npm run bench:cluster
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import sharp from 'sharp';
import { freePort } from '../../server/src/test/server-process';
import { Topology } from '../../scripts/cluster/topology';

const sizes = (process.env.CLUSTER_SIZES ?? '1,3').split(',').map(Number);
const seconds = Number(process.env.CLUSTER_SECONDS ?? 10);
const funders = Number(process.env.CLUSTER_FUNDERS ?? 16);
const connections = Number(process.env.CLUSTER_CONNECTIONS ?? 16);
const PICTURES = 8;

interface Measure {
  rps: number;
  p99: number;
  errors: number;
}

/** A signed-in user of the cluster: its cookie. */
async function signUp(base: string, name: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { origin: base, 'content-type': 'application/json' },
    body: JSON.stringify({ username: name, password: 'bench-pass-1', email: `${name}@example.com` }),
  });
  if (res.status !== 200) throw new Error(`register ${name}: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

async function call(base: string, cookie: string, url: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: { origin: base, cookie, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

async function topUp(base: string, cookie: string, amount: number): Promise<void> {
  const { url } = await call(base, cookie, '/api/payment/checkout', { amount, url: '/profile' });
  await call(base, cookie, `/api/payment/demo/${String(url).split('/').pop()}/pay`, {});
}

async function uploadPicture(base: string, cookie: string): Promise<number> {
  const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#468' } })
    .jpeg()
    .toBuffer();
  const form = new FormData();
  form.append('amount', '100');
  form.append('file', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'bench.jpg');
  const res = await fetch(`${base}/api/payment/checkout-with-image-upload`, {
    method: 'POST',
    headers: { origin: base, cookie, 'idempotency-key': randomUUID() },
    body: form,
  });
  if (res.status !== 200) throw new Error(`upload: ${res.status} ${await res.text()}`);
  return Number(/\/(\d+)$/.exec(((await res.json()) as { url: string }).url)?.[1]);
}

function load(opts: autocannon.Options): Promise<Measure> {
  return new Promise((resolve, reject) => {
    autocannon(opts, (err, r) => {
      if (err) return reject(err);
      resolve({ rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.non2xx });
    });
  });
}

/** Samples the replica's replay lag on the primary every 100 ms until stopped; answers p99 and max in ms. */
function sampleLag(primaryUrl: string): { stop(): Promise<{ p99: number; max: number; samples: number }> } {
  const client = new pg.Client({ connectionString: primaryUrl });
  const lags: number[] = [];
  let running = true;
  const loop = (async () => {
    await client.connect();
    while (running) {
      const { rows } = await client.query<{ ms: number | null }>(
        `SELECT (EXTRACT(EPOCH FROM replay_lag) * 1000)::float8 AS ms FROM pg_stat_replication LIMIT 1`,
      );
      lags.push(Number(rows[0]?.ms ?? 0));
      await new Promise((r) => setTimeout(r, 100));
    }
    await client.end();
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const sorted = [...lags].sort((a, b) => a - b);
      const p99 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0;
      return { p99, max: sorted.at(-1) ?? 0, samples: sorted.length };
    },
  };
}

const rows: string[] = [];
for (const instances of sizes) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wall-bench-cluster-'));
  fs.chmodSync(dir, 0o755);
  console.error(`bench: starting the cluster with ${instances} instance(s)...`);
  // Every sign-up comes from this one address: the per-address limit is lifted.
  const env = { AUTH_RATE_LIMIT: '100000' };
  const t = await Topology.start({ dir, port: await freePort(), instances, web: false, env });
  try {
    const base = t.url;
    // Funds spread over pictures of different authors: a picture's row, and its author's balance (credited by each
    // fund of it), are hot rows of their own.
    const pictureIds: number[] = [];
    for (let i = 0; i < PICTURES; i++) {
      const author = await signUp(base, `author${instances}x${i}`);
      await topUp(base, author, 1000);
      pictureIds.push(await uploadPicture(base, author));
    }
    const cookies: string[] = [];
    for (let i = 0; i < funders; i++) {
      const cookie = await signUp(base, `funder${instances}x${i}`);
      await topUp(base, cookie, 50_000);
      cookies.push(cookie);
    }

    const wallUrl = `${base}/api/pictures?sort=top&offset=0&limit=20`;
    await load({ url: wallUrl, connections, duration: 1 });
    const wall = await load({ url: wallUrl, connections, duration: seconds });

    let next = 0;
    const lag = sampleLag(t.primary.url);
    const spends = await load({
      url: base,
      connections,
      duration: seconds,
      requests: [
        {
          method: 'POST',
          path: '/api/payment/checkout-with-image-fund',
          setupRequest: (req) => ({
            ...req,
            headers: {
              ...req.headers,
              origin: base,
              cookie: cookies[++next % cookies.length]!,
              'content-type': 'application/json',
              'idempotency-key': randomUUID(),
            },
            body: JSON.stringify({ imageId: pictureIds[next % PICTURES], amount: 1 }),
          }),
        },
      ],
    });
    const replay = await lag.stop();
    rows.push(
      `| ${instances} | ${Math.round(wall.rps).toLocaleString('en')} | ${wall.p99} | ${wall.errors} | ` +
        `${Math.round(spends.rps).toLocaleString('en')} | ${spends.p99} | ${spends.errors} | ` +
        `${replay.p99.toFixed(1)} / ${replay.max.toFixed(1)} |`,
    );
    console.error(rows.at(-1));
  } finally {
    await t.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

console.log(
  [
    '',
    `| instances | wall pages/s | p99 ms | failed | spends/s | p99 ms | failed | replica replay lag p99 / max ms |`,
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    `${connections} connections through HAProxy, ${seconds} s each; spends by ${funders} users on ${PICTURES} pictures of ${PICTURES} authors.`,
    `Rerun: CLUSTER_SIZES=${sizes.join(',')} CLUSTER_SECONDS=${seconds} npm run bench:cluster`,
  ].join('\n'),
);
