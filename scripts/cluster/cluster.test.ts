import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { LiveTestClient } from '../../server/src/live/live-test-client';
import { freePort } from '../../server/src/test/server-process';
import { SiteClient } from './site-client';
import { Topology } from './topology';

/** Files under a directory that look like stored images (named by a content hash). */
function imageFilesUnder(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => /[0-9a-f]{64}\.(jpg|webp)$/.test(f));
}

/**
 * `npm run cluster`'s topology on real engines (HAProxy, three instances, PgBouncer, a PostgreSQL primary and its
 * streaming replica, Redis), driven from outside through HAProxy as people reach it (docs/scaling.md).
 */
describe('the cluster', () => {
  let dir: string;
  let t: Topology;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wall-cluster-test-'));
    fs.chmodSync(dir, 0o755);
    t = await Topology.start({ dir, port: await freePort(), instances: 3, web: false });
  });
  afterAll(async () => {
    await t?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const browser = () => new SiteClient(t.url);

  it('lists every component and answers /api/health 200 through HAProxy', async () => {
    const names = t.describe().components.map((c) => c.name);
    expect(names).toEqual([
      'haproxy',
      'app-1',
      'app-2',
      'app-3',
      'pgbouncer',
      'postgres-1',
      'postgres-2',
      'redis-1',
      's3',
    ]);
    expect((await fetch(`${t.url}/api/health`)).status).toBe(200);
  });

  it('stays readable with the primary stopped: walls, detail and the store answer 200 from the replica, a fund 503; writes resume after its return', async () => {
    const b = browser();
    const name = `reader${Date.now().toString(36)}`;
    const signUp = { username: name, password: 'secret-pass-1', email: `${name}@example.com` };
    expect((await b.call('POST', '/api/auth/register', signUp)).status).toBe(200);
    await b.topUp(5000);
    const jpeg = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#3a6' } })
      .jpeg()
      .toBuffer();
    const form = new FormData();
    form.append('amount', '200');
    form.append('file', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'wall.jpg');
    const uploaded = await fetch(`${t.url}/api/payment/checkout-with-image-upload`, {
      method: 'POST',
      headers: { origin: t.url, cookie: b.cookie, 'idempotency-key': randomUUID() },
      body: form,
    });
    expect(uploaded.status).toBe(200);
    // It answers the new picture's page, /image/detail/<id>.
    const pictureId = Number(/\/(\d+)$/.exec(((await uploaded.json()) as { url: string }).url)?.[1]);
    const fund = () =>
      b.call(
        'POST',
        '/api/payment/checkout-with-image-fund',
        { imageId: pictureId, amount: 10 },
        { 'idempotency-key': randomUUID() },
      );
    expect((await fund()).status).toBe(200);

    // The image is in the bucket: every instance serves the same bytes, and none wrote an image under its DATA_DIR.
    const detail = (await (await b.call('GET', `/api/pictures/${pictureId}`)).json()) as { url: string };
    const served = await Promise.all(
      t.instances.map(async (i) =>
        Buffer.from(await (await fetch(`http://127.0.0.1:${i.port}${detail.url}`)).arrayBuffer()),
      ),
    );
    expect(new Set(served.map((bytes) => bytes.toString('base64'))).size).toBe(1);
    expect(served[0]!.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    for (const i of t.instances) expect(imageFilesUnder(i.dataDir)).toEqual([]);

    // The replica has replayed it all before the primary goes.
    await new Promise((r) => setTimeout(r, 1500));

    await t.primary.stop('fast');
    try {
      // Each instance's read routing sees the primary gone at its next check, within about two seconds
      // (docs/scaling.md, "Read replica"); from then on, reads answer from the replica.
      for (const until = Date.now() + 5_000; Date.now() < until; await new Promise((r) => setTimeout(r, 250))) {
        if ((await b.call('GET', '/api/pictures?page=0')).status === 200) break;
      }
      for (let round = 0; round < 3; round++) {
        const wall = await b.call('GET', '/api/pictures?page=0');
        expect(wall.status, await wall.clone().text()).toBe(200);
        expect(((await wall.json()) as { id: number }[]).map((p) => p.id)).toContain(pictureId);
        expect((await b.call('GET', `/api/pictures/${pictureId}`)).status).toBe(200);
        // Signed in: the session itself is read from the replica.
        expect((await b.call('GET', '/api/items/details')).status).toBe(200);
        await new Promise((r) => setTimeout(r, 500));
      }
      expect((await fund()).status).toBe(503);
      expect((await fetch(`${t.url}/api/health?read=1`)).status).toBe(200);
    } finally {
      await t.primary.start();
    }
    const back = Date.now();
    let status = 0;
    while (Date.now() - back < 20_000 && (status = (await fund()).status) !== 200)
      await new Promise((r) => setTimeout(r, 500));
    expect(status).toBe(200);
    // Every instance has seen the primary back (read-routing.ts: within about two seconds) before the next test.
    await new Promise((r) => setTimeout(r, 2500));
  });

  it('drains an instance told to stop under traffic: no request fails, and its sockets get the next balance update elsewhere', async () => {
    const b = browser();
    const name = `drain${Date.now().toString(36)}`;
    const registered = await b.call('POST', '/api/auth/register', {
      username: name,
      password: 'secret-pass-1',
      email: `${name}@example.com`,
    });
    expect(registered.status).toBe(200);

    // leastconn spreads the sockets over the three instances.
    const sockets = await Promise.all([...Array(6)].map(() => LiveTestClient.open(t.url, { cookie: b.cookie })));
    for (const s of sockets) s.subscribe('balance');

    const failures: string[] = [];
    let requests = 0;
    let traffic = true;
    const worker = async () => {
      while (traffic) {
        requests += 3;
        const res = await b.call('GET', '/api/pictures?page=0').catch(() => undefined);
        if (res?.status !== 200) failures.push(`GET /api/pictures answered ${res?.status ?? 'nothing'}`);
        await b.topUp(100).catch((err: Error) => failures.push(`top-up: ${err.message}`));
      }
    };
    const workers = [...Array(4)].map(worker);
    await new Promise((r) => setTimeout(r, 1000));
    const stopping = t.instances[0]!;
    stopping.process.child.kill('SIGTERM');
    expect(await stopping.process.exited).toBe(0);
    await new Promise((r) => setTimeout(r, 1000));
    traffic = false;
    await Promise.all(workers);
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(20);

    // The stopped instance's sockets were closed as going away (1001); the client reconnects, through HAProxy, to
    // one that is up, and hears what comes next.
    const closed = sockets.filter((s) => s.closeCode !== undefined);
    expect(closed.length).toBeGreaterThan(0);
    expect(closed.every((s) => s.closeCode === 1001)).toBe(true);
    const reconnected = await Promise.all(closed.map(() => LiveTestClient.open(t.url, { cookie: b.cookie })));
    for (const s of reconnected) s.subscribe('balance');
    const open = [...sockets.filter((s) => s.closeCode === undefined), ...reconnected];
    await new Promise((r) => setTimeout(r, 300));
    const balance = await b.topUp(700);
    await Promise.all(open.map((s) => s.next((f) => f.ch === 'balance' && f.m.value === balance)));
    for (const s of open) s.close();
  });
});
