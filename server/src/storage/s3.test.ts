import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { StorageUnavailableError } from '../db/unavailable';
import { startTcpProxy, type TcpProxy } from '../test/tcp-proxy';
import { startTestS3, TEST_BUCKET, type TestS3 } from '../test/s3-server';
import { s3Client, S3_PREFIX, S3Storage, s3StorageFor } from './s3';
import { STORAGE_KEY, type StoredEntry } from './storage';

/**
 * The S3 storage against a local S3-compatible server over real HTTP (docs/decisions.md "Images in object storage"):
 * the same contract as local disk, and a bucket that is down or hangs fails fast as StorageUnavailableError.
 */
describe('S3 storage', () => {
  let s3: TestS3;
  let storage: S3Storage;
  beforeAll(async () => {
    s3 = await startTestS3();
    storage = s3StorageFor(s3.config, { pageSize: 2 });
  });
  afterAll(async () => {
    storage.close();
    await s3.close();
  });

  const image = () => {
    const bytes = randomBytes(300);
    return { bytes, hash: createHash('sha256').update(bytes).digest('hex') };
  };
  const listAll = async () => {
    const all: StoredEntry[] = [];
    for await (const entry of storage.list()) all.push(entry);
    return all;
  };

  it('puts, gets, streams and tells whether a key is there', async () => {
    const { bytes, hash } = image();
    const key = await storage.put(hash, bytes, 'image/webp');
    expect(key).toBe(`${hash}.webp`);

    expect(await storage.get(key)).toEqual({ bytes, contentType: 'image/webp' });
    expect(await storage.exists(key)).toBe(true);
    const opened = await storage.open(key);
    expect(opened).toMatchObject({ contentType: 'image/webp', length: bytes.length });
    const chunks: Buffer[] = [];
    for await (const chunk of opened!.body as Readable) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks)).toEqual(bytes);

    const absent = `${'0'.repeat(64)}.jpg`;
    expect(await storage.get(absent)).toBeUndefined();
    expect(await storage.open(absent)).toBeUndefined();
    expect(await storage.exists(absent)).toBe(false);
    // Only the storage's key shape ever reaches the bucket.
    expect(await storage.get('../secrets.jpg')).toBeUndefined();
    expect(await storage.exists(`${S3_PREFIX}x`)).toBe(false);
  });

  it("stores a picture's variants under `<hash>-<width>.<ext>`, AVIF included, and lists and removes them", async () => {
    const { bytes, hash } = image();
    const keys = [
      await storage.put(`${hash}-360`, bytes, 'image/avif'),
      await storage.put(`${hash}-720`, bytes, 'image/webp'),
      await storage.put(`${hash}-360`, bytes, 'image/jpeg'),
    ];
    expect(keys).toEqual([`${hash}-360.avif`, `${hash}-720.webp`, `${hash}-360.jpg`]);
    expect(await storage.get(keys[0]!)).toEqual({ bytes, contentType: 'image/avif' });
    expect((await storage.open(keys[1]!))?.contentType).toBe('image/webp');
    const listed = (await listAll()).map((e) => e.key);
    for (const key of keys) expect(listed).toContain(key);
    expect(await storage.removeIfOlder(keys[0]!, new Date(Date.now() + 60_000))).toBe(true);
    expect(await storage.exists(keys[0]!)).toBe(false);
    // Not a key: no width, a width with a leading zero, an unknown format.
    await expect(storage.put(`${hash}-`, bytes, 'image/avif')).rejects.toThrow();
    await expect(storage.put(`${hash}-0360`, bytes, 'image/avif')).rejects.toThrow();
    await expect(storage.put(`${hash}-360`, bytes, 'image/png')).rejects.toThrow();
  });

  it('lists every stored image over several pages, and nothing else under its prefix', async () => {
    const keys: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { bytes, hash } = image();
      keys.push(await storage.put(hash, bytes, 'image/jpeg'));
    }
    const client = s3Client(s3.config);
    await client.send(new PutObjectCommand({ Bucket: TEST_BUCKET, Key: `${S3_PREFIX}notes.txt`, Body: 'x' }));
    await client.send(new PutObjectCommand({ Bucket: TEST_BUCKET, Key: `elsewhere/${keys[0]}`, Body: 'x' }));
    client.destroy();

    const listed = await listAll();
    expect(listed.map((e) => e.key)).toEqual(expect.arrayContaining(keys));
    expect(listed.every((e) => STORAGE_KEY.test(e.key))).toBe(true);
    expect(new Set(listed.map((e) => e.key)).size).toBe(listed.length);
    for (const entry of listed) expect(Math.abs(entry.modifiedAt.getTime() - Date.now())).toBeLessThan(60_000);
    expect(await storage.removePartialsOlder(new Date())).toBe(0); // a PUT is atomic: no partial objects
  });

  it('removes a key only when it was last written before the given time', async () => {
    const { bytes, hash } = image();
    const key = await storage.put(hash, bytes, 'image/jpeg');
    const written = (await listAll()).find((e) => e.key === key)!.modifiedAt;

    expect(await storage.removeIfOlder(key, new Date(written.getTime() - 60_000))).toBe(false);
    expect(await storage.exists(key)).toBe(true);
    expect(await storage.removeIfOlder(key, new Date(written.getTime() + 60_000))).toBe(true);
    expect(await storage.exists(key)).toBe(false);
    expect(await storage.removeIfOlder(key, new Date(written.getTime() + 60_000))).toBe(false);
  });

  describe('a bucket that is away', () => {
    let proxy: TcpProxy;
    let through: S3Storage;
    let key: string;
    beforeAll(async () => {
      proxy = await startTcpProxy({ host: '127.0.0.1', port: s3.port });
      through = new S3Storage(s3Client({ ...s3.config, endpoint: proxy.urlFor(s3.config.endpoint!) }), TEST_BUCKET);
      const { bytes, hash } = image();
      key = await through.put(hash, bytes, 'image/jpeg');
    });
    afterAll(async () => {
      through.close();
      await proxy.close();
    });

    /** How long the call took to fail, and with what. */
    async function failure(call: () => Promise<unknown>): Promise<{ ms: number; err: unknown }> {
      const started = Date.now();
      const err = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      return { ms: Date.now() - started, err };
    }

    it('down: every call fails at once as StorageUnavailableError, and works again when it is back', async () => {
      await proxy.cut();
      const { bytes, hash } = image();
      for (const call of [
        () => through.put(hash, bytes, 'image/jpeg'),
        () => through.open(key),
        () => through.exists(key),
        () => listAllOf(through),
      ]) {
        const { ms, err } = await failure(call);
        expect(err).toBeInstanceOf(StorageUnavailableError);
        expect(ms).toBeLessThan(3_000);
      }
      await proxy.restore();
      expect(await through.exists(key)).toBe(true);
      expect(await through.put(hash, bytes, 'image/jpeg')).toBe(`${hash}.jpg`);
    });

    it('hanging: a call gives up within a few seconds, and works again when it answers', async () => {
      proxy.freeze();
      const { ms, err } = await failure(() => through.get(key));
      expect(err).toBeInstanceOf(StorageUnavailableError);
      expect(ms).toBeLessThan(8_000);
      await proxy.restore();
      expect(await through.exists(key)).toBe(true);
    }, 20_000);
  });
});

async function listAllOf(storage: S3Storage): Promise<string[]> {
  const keys: string[] = [];
  for await (const entry of storage.list()) keys.push(entry.key);
  return keys;
}

describe('the S3 settings', () => {
  it('keeps images on local disk unless S3_BUCKET is set, and reads the rest of the S3_ variables', () => {
    expect(loadConfig({}).s3).toBeUndefined();
    expect(loadConfig({}).imageBaseUrl).toBeUndefined();
    expect(loadConfig({ S3_BUCKET: 'pics' }).s3).toEqual({
      bucket: 'pics',
      endpoint: undefined,
      region: 'us-east-1',
      credentials: undefined,
      forcePathStyle: false,
    });
    const minio = loadConfig({
      S3_BUCKET: 'pics',
      S3_ENDPOINT: 'http://minio:9000',
      S3_REGION: 'eu-west-3',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: '1',
      IMAGE_BASE_URL: 'https://cdn.example.test/images/',
    });
    expect(minio.s3).toEqual({
      bucket: 'pics',
      endpoint: 'http://minio:9000',
      region: 'eu-west-3',
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
      forcePathStyle: true,
    });
    expect(minio.imageBaseUrl).toBe('https://cdn.example.test/images');
  });

  it('refuses settings that cannot work, saying which', () => {
    expect(() => loadConfig({ S3_BUCKET: 'pics', S3_ACCESS_KEY_ID: 'id' })).toThrow(/S3_SECRET_ACCESS_KEY/);
    expect(() => loadConfig({ S3_BUCKET: 'pics', S3_ENDPOINT: 'minio:9000' })).toThrow(/S3_ENDPOINT/);
    expect(() => loadConfig({ S3_BUCKET: 'pics', S3_FORCE_PATH_STYLE: 'yes please' })).toThrow(/S3_FORCE_PATH_STYLE/);
    expect(() => loadConfig({ IMAGE_BASE_URL: 'ftp://x' })).toThrow(/IMAGE_BASE_URL/);
  });
});
