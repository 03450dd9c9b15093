import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeOrphanImages } from '../jobs/orphan-images.job';
import { availableBalance } from '../ledger/ledger';
import { imageOf, jpegPart, upload } from '../modules/pictures/test-helpers';
import { makeUser, signIn } from '../test/factories';
import { startTestApp, type TestApp } from '../test/harness';
import { startTestS3, type TestS3 } from '../test/s3-server';
import { localStorageFor } from './local-disk';
import { s3StorageFor, type S3Storage } from './s3';
import { runAdmin } from '../test/admin-command';

/**
 * Images in a bucket shared by several instances (docs/decisions.md "Images in object storage"), each with its own
 * DATA_DIR, against a local S3-compatible server over real HTTP: an image uploaded through one is served with the
 * same bytes by the others, nothing image-shaped lands under any DATA_DIR, and a bucket that goes away answers 503
 * and comes back by itself.
 */
describe('images in an S3 bucket, across instances', () => {
  let s3: TestS3;
  let bucket: S3Storage;
  const dirs: string[] = [];
  let a: TestApp;
  let b: TestApp;
  let cdn: TestApp;
  const IMAGE_BASE_URL = 'https://images.example.test/wall';

  beforeAll(async () => {
    s3 = await startTestS3();
    bucket = s3StorageFor(s3.config);
    const instance = (env: Record<string, string> = {}) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wall-s3-app-'));
      dirs.push(dataDir);
      return startTestApp({ env: { ...s3.env, ...env }, config: { dataDir } });
    };
    a = await instance();
    b = await instance();
    cdn = await instance({ IMAGE_BASE_URL: `${IMAGE_BASE_URL}/` });
  });
  afterAll(async () => {
    await Promise.all([a, b, cdn].map((t) => t?.close()));
    bucket.close();
    await s3.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Every file under a directory, recursively. */
  const filesUnder = (dir: string): string[] =>
    fs.existsSync(dir) ? (fs.readdirSync(dir, { recursive: true }) as string[]).map(String) : [];
  const bucketKeys = async () => {
    const keys: string[] = [];
    for await (const { key } of bucket.list()) keys.push(key);
    return keys.sort();
  };

  async function uploadThroughA(amount = 100): Promise<{ key: string; url: string }> {
    const client = await signIn(a, (await makeUser(a.ctx, { balance: 1_000 })).id);
    const res = await upload(client, amount, jpegPart(await imageOf(300 + Math.floor(Math.random() * 200), 300)));
    expect(res.statusCode, res.body).toBe(200);
    const id = (res.json() as { url: string }).url.split('/').pop();
    const { url } = (await client.get(`/api/pictures/${id}`)).json() as { url: string };
    return { url, key: url.split('/').pop()! };
  }

  it('serves an image uploaded through one instance from another, same bytes, nothing under either DATA_DIR', async () => {
    expect(a.ctx.config.s3?.bucket).toBe(s3.config.bucket);
    const { url, key } = await uploadThroughA();
    expect(await bucketKeys()).toContain(key);

    const fromA = await a.client().get(url);
    const fromB = await b.client().get(url);
    expect(fromA.statusCode).toBe(200);
    expect(fromB.statusCode).toBe(200);
    expect(fromB.rawPayload.equals(fromA.rawPayload)).toBe(true);
    expect(createHash('sha256').update(fromB.rawPayload).digest('hex')).toBe(key.split('.')[0]);
    expect(fromB.headers['content-type']).toBe('image/jpeg');
    expect(fromB.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(fromB.headers['etag']).toBe(`"${key.split('.')[0]}"`);
    expect(fromA.headers['etag']).toBe(fromB.headers['etag']);

    for (const dir of dirs) {
      const files = filesUnder(dir);
      expect(
        files.filter((f) => /[0-9a-f]{64}/.test(f) || /(^|\/)images(\/|$)/.test(f)),
        dir,
      ).toEqual([]);
    }
  });

  it('answers 304 to If-None-Match with the ETag, and a HEAD without the bytes', async () => {
    const { url } = await uploadThroughA();
    const etag = (await b.client().get(url)).headers['etag'] as string;
    const again = await b.client().get(url, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers['etag']).toBe(etag);
    expect((await b.client().get(url, { 'if-none-match': `W/${etag}, "other"` })).statusCode).toBe(304);
    expect((await b.client().get(url, { 'if-none-match': '"other"' })).statusCode).toBe(200);
    // An ETag of an image that is gone is no 304.
    const gone = `${'e'.repeat(64)}.jpg`;
    expect((await b.client().get(`/images/${gone}`, { 'if-none-match': `"${'e'.repeat(64)}"` })).statusCode).toBe(404);

    const head = await b.client().request({ method: 'HEAD', url });
    expect(head.statusCode).toBe(200);
    expect(head.headers['etag']).toBe(etag);
    expect(head.headers['content-type']).toBe('image/jpeg');
    expect(head.rawPayload.length).toBe(0);
  });

  it('redirects to IMAGE_BASE_URL/{key} when that is set', async () => {
    const { url, key } = await uploadThroughA();
    const res = await cdn.client().get(url);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`${IMAGE_BASE_URL}/${key}`);
    // A key that is no storage key is not sent anywhere.
    expect((await cdn.client().get('/images/..%2Fsecrets')).statusCode).toBe(404);
    // The page may show images from there (the browser follows the redirect under the page's policy).
    const policy = String((await cdn.client().get('/api/health')).headers['content-security-policy']);
    expect(policy).toMatch(/img-src [^;]*https:\/\/images\.example\.test/);
  });

  it('stores nothing for a refused upload, and the cleanup job removes unused objects from the bucket', async () => {
    const before = await bucketKeys();
    const poor = await signIn(a, (await makeUser(a.ctx, { balance: 50 })).id);
    const refused = await upload(poor, 100, jpegPart(await imageOf(333, 222)));
    expect(refused.statusCode).toBe(402);
    expect(await bucketKeys()).toEqual(before);

    const bytes = randomBytes(200);
    const orphan = await bucket.put(createHash('sha256').update(bytes).digest('hex'), bytes, 'image/jpeg');
    const { key: used } = await uploadThroughA();
    const later = new Date(Date.now() + 2 * 3_600_000);
    const removed = await a.ctx.transact((work) => removeOrphanImages(work.tx, a.ctx.storage, later));
    expect(removed).toBeGreaterThanOrEqual(1);
    const left = await bucketKeys();
    expect(left).not.toContain(orphan);
    expect(left).toContain(used);
  });

  it('answers 503 to uploads and image reads while the bucket is down, charging nothing, and recovers by itself', async () => {
    const { url, key } = await uploadThroughA();
    const user = await makeUser(a.ctx, { balance: 1_000 });
    const client = await signIn(a, user.id);
    await s3.stop();
    try {
      let started = Date.now();
      const refused = await upload(client, 100, jpegPart(await imageOf(401, 301)));
      expect(refused.statusCode, refused.body).toBe(503);
      expect(refused.headers['retry-after']).toBe('2');
      expect(Object.keys(refused.json() as object)).toEqual(['message']);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(await availableBalance(a.ctx.db, user.id)).toBe(1_000);

      started = Date.now();
      const read = await b.client().get(url);
      expect(read.statusCode).toBe(503);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect((await b.client().get(url, { 'if-none-match': `"${key.split('.')[0]}"` })).statusCode).toBe(503);
    } finally {
      await s3.start();
    }
    expect((await b.client().get(url)).statusCode).toBe(200);
    const again = await upload(client, 100, jpegPart(await imageOf(401, 301)));
    expect(again.statusCode, again.body).toBe(200);
    expect(await availableBalance(a.ctx.db, user.id)).toBe(900);
  });

  it('npm run admin -- copy-images-to-s3 copies a disk’s images into the bucket, and a second run copies nothing', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wall-s3-copy-'));
    dirs.push(dataDir);
    const disk = localStorageFor(dataDir);
    const keys: string[] = [];
    for (let i = 0; i < 3; i++) {
      const bytes = randomBytes(500);
      keys.push(
        await disk.put(createHash('sha256').update(bytes).digest('hex'), bytes, i ? 'image/jpeg' : 'image/webp'),
      );
    }

    const first = await runAdmin(['copy-images-to-s3'], { ...s3.env, DATA_DIR: dataDir });
    expect(first, first.stderr).toMatchObject({ code: 0 });
    expect(first.stdout).toBe(`Copied 3 images into ${s3.config.bucket}; 0 were there already.\n`);
    for (const key of keys) expect((await bucket.get(key))?.bytes).toEqual((await disk.get(key))?.bytes);
    expect((await bucket.get(keys[0]!))?.contentType).toBe('image/webp');

    const second = await runAdmin(['copy-images-to-s3'], { ...s3.env, DATA_DIR: dataDir });
    expect(second).toMatchObject({
      code: 0,
      stdout: `Copied 0 images into ${s3.config.bucket}; 3 were there already.\n`,
    });

    const withoutBucket = await runAdmin(['copy-images-to-s3'], { DATA_DIR: dataDir });
    expect(withoutBucket.code).toBe(1);
    expect(withoutBucket.stderr).toMatch(/^S3_BUCKET is not set/);
  });
});
