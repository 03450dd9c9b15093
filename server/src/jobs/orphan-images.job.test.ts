import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageOf, jpegPart, upload } from '../modules/pictures/test-helpers';
import { localStorageFor } from '../storage/local-disk';
import { makeUser, signIn } from '../test/factories';
import { missingRealServices, realPostgresUrl } from '../test/databases';
import { startTestApp } from '../test/harness';
import { JOBS } from './jobs';
import { ORPHAN_GRACE_MS, orphanImagesJob } from './orphan-images.job';
import { runJob } from './runner';

const HOUR = 3_600_000;

/** A test app on a data directory of its own, and helpers to put files in its image store. */
async function appWithStore(opts: { postgresUrl?: string } = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wall-orphans-'));
  const app = await startTestApp({ config: { dataDir }, postgresUrl: opts.postgresUrl });
  const storage = localStorageFor(dataDir);
  const dir = path.join(dataDir, 'images');
  return {
    app,
    file: (key: string) => path.join(dir, key),
    exists: (key: string) => fs.existsSync(path.join(dir, key)),
    /** A stored file nobody references, written `ageMs` ago. */
    async orphan(ageMs: number): Promise<string> {
      const key = await storage.put(randomBytes(32).toString('hex'), randomBytes(100), 'image/jpeg');
      age(path.join(dir, key), ageMs);
      return key;
    },
    /** A paid picture's stored file, aged `ageMs`. */
    async picture(ageMs: number): Promise<{ key: string; url: string }> {
      const u = await makeUser(app.ctx, { balance: 1000 });
      const client = await signIn(app, u.id);
      const res = await upload(client, 100, jpegPart(await imageOf(300 + Math.floor(Math.random() * 200), 300)));
      expect(res.statusCode).toBe(200);
      const picture = (
        await client.get(`/api/pictures/${(res.json() as { url: string }).url.split('/').pop()}`)
      ).json();
      const key = (picture.url as string).split('/').pop()!;
      age(path.join(dir, key), ageMs);
      return { key, url: picture.url };
    },
    async close() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function age(file: string, ms: number): void {
  const then = new Date(Date.now() - ms);
  fs.utimesSync(file, then, then);
}

describe('the orphan image cleanup job', () => {
  let store: Awaited<ReturnType<typeof appWithStore>>;
  beforeAll(async () => {
    store = await appWithStore();
  });
  afterAll(() => store.close());

  it('is one of the periodic jobs, with a lock of its own', () => {
    expect(JOBS).toContain(orphanImagesJob);
    expect(new Set(JOBS.map((j) => j.lock)).size).toBe(JOBS.length);
    expect(ORPHAN_GRACE_MS).toBeGreaterThanOrEqual(HOUR);
  });

  it('removes files no picture references once they are older than the grace period, and nothing else', async () => {
    const oldOrphan = await store.orphan(ORPHAN_GRACE_MS + HOUR);
    const anotherOldOrphan = await store.orphan(30 * 24 * HOUR);
    // An upload in flight has written its file and not committed yet: it looks exactly like this.
    const freshOrphan = await store.orphan(ORPHAN_GRACE_MS / 2);
    const oldPicture = await store.picture(ORPHAN_GRACE_MS + HOUR);
    const freshPicture = await store.picture(0);

    expect(await runJob(store.app.ctx, orphanImagesJob)).toBe(true);

    expect(store.exists(oldOrphan)).toBe(false);
    expect(store.exists(anotherOldOrphan)).toBe(false);
    expect(store.exists(freshOrphan)).toBe(true);
    expect(store.exists(oldPicture.key)).toBe(true);
    expect(store.exists(freshPicture.key)).toBe(true);
    for (const { url } of [oldPicture, freshPicture]) {
      expect((await store.app.client().get(url)).statusCode).toBe(200);
    }
  });

  it("removes an unused file's variants with it, and keeps a standing picture's variants however old", async () => {
    const base = await store.orphan(ORPHAN_GRACE_MS + HOUR);
    const hash = base.slice(0, 64);
    const storage = localStorageFor(store.app.config.dataDir);
    const variants: string[] = [];
    for (const [name, type] of [
      [`${hash}-360`, 'image/avif'],
      [`${hash}-720`, 'image/webp'],
      [`${hash}-360`, 'image/jpeg'],
    ] as const) {
      const key = await storage.put(name, randomBytes(50), type);
      age(store.file(key), ORPHAN_GRACE_MS + HOUR);
      variants.push(key);
    }
    const standing = await store.picture(0);
    const listed = fs.readdirSync(path.dirname(store.file('x')));
    const standingVariants = listed.filter((f) => f.startsWith(`${standing.key.slice(0, 64)}-`));
    expect(standingVariants.length).toBeGreaterThan(0);
    for (const key of [standing.key, ...standingVariants]) age(store.file(key), ORPHAN_GRACE_MS + HOUR);

    expect(await runJob(store.app.ctx, orphanImagesJob)).toBe(true);

    for (const key of [base, ...variants]) expect(store.exists(key), key).toBe(false);
    for (const key of [standing.key, ...standingVariants]) expect(store.exists(key), key).toBe(true);
  });

  it('removes the stale partial files of writes that never finished, and leaves a write in progress alone', async () => {
    fs.mkdirSync(path.dirname(store.file('x')), { recursive: true });
    const partial = (ageMs: number) => {
      const name = `${randomBytes(32).toString('hex')}.jpg.${randomBytes(6).toString('hex')}.tmp`;
      fs.writeFileSync(store.file(name), randomBytes(217 * 1024)); // the 217 KB left by a full disk
      age(store.file(name), ageMs);
      return name;
    };
    const stale = partial(ORPHAN_GRACE_MS + HOUR);
    const writing = partial(0);
    const notOurs = 'notes.tmp';
    fs.writeFileSync(store.file(notOurs), 'x');
    age(store.file(notOurs), ORPHAN_GRACE_MS + HOUR);

    expect(await runJob(store.app.ctx, orphanImagesJob)).toBe(true);

    expect(store.exists(stale)).toBe(false);
    expect(store.exists(writing)).toBe(true);
    expect(store.exists(notOurs)).toBe(true); // only the store's own kind of partial file
  });

  it('keeps a file that was written again after it was listed (the same image uploaded meanwhile)', async () => {
    const key = await store.orphan(ORPHAN_GRACE_MS + HOUR);
    const storage = localStorageFor(store.app.config.dataDir);
    const listedBefore = new Date(Date.now() - ORPHAN_GRACE_MS);
    age(store.file(key), 0); // rewritten by an upload between the listing and the removal
    expect(await storage.removeIfOlder(key, listedBefore)).toBe(false);
    expect(store.exists(key)).toBe(true);
    age(store.file(key), ORPHAN_GRACE_MS + HOUR);
    expect(await storage.removeIfOlder(key, listedBefore)).toBe(true);
    expect(store.exists(key)).toBe(false);
  });
});

describe.skipIf(missingRealServices({ postgres: true }))('the orphan image cleanup job on PostgreSQL', () => {
  let store: Awaited<ReturnType<typeof appWithStore>>;
  beforeAll(async () => {
    store = await appWithStore({ postgresUrl: realPostgresUrl });
  });
  afterAll(() => store.close());

  it('runs on one instance at a time: while another holds its lock, this one skips the run', async () => {
    const orphan = await store.orphan(ORPHAN_GRACE_MS + HOUR);
    // Another instance in the middle of the job: its session holds the job's advisory lock.
    const other = new pg.Client({ connectionString: store.app.config.databaseUrl });
    await other.connect();
    try {
      await other.query('SELECT pg_advisory_lock($1)', [orphanImagesJob.lock]);
      expect(await runJob(store.app.ctx, orphanImagesJob)).toBe(false);
      expect(store.exists(orphan)).toBe(true);
      await other.query('SELECT pg_advisory_unlock($1)', [orphanImagesJob.lock]);
    } finally {
      await other.end();
    }
    expect(await runJob(store.app.ctx, orphanImagesJob)).toBe(true);
    expect(store.exists(orphan)).toBe(false);
  });
});
