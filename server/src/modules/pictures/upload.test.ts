import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { startTestApp, type TestApp } from '../../test/harness';
import { makeUser, signIn } from '../../test/factories';
import { availableBalance } from '../../ledger/ledger';
import { checkConservation } from '../../ledger/conservation';
import { imageOf, jpegPart, upload } from './test-helpers';

let t: TestApp;
let dataDir: string;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wall-upload-'));
  t = await startTestApp({ config: { dataDir } });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The image files in the store, sorted (temporary files of a write in flight excluded). */
function storedFiles(): string[] {
  const dir = path.join(dataDir, 'images');
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => !f.endsWith('.tmp'))
        .sort()
    : [];
}

async function pictureCountOf(authorId: number, app: TestApp = t): Promise<number> {
  const res = await app.client().get(`/api/pictures?sort=profile&authorId=${authorId}`);
  return (res.json() as unknown[]).length;
}

describe('POST /api/payment/checkout-with-image-upload', () => {
  it('charges the price, creates the picture and answers the page it opens on', async () => {
    const u = await makeUser(t.ctx, { balance: 1000 });
    const client = await signIn(t, u.id);
    const res = await upload(client, 500, jpegPart(await imageOf(800, 600)));
    expect(res.statusCode).toBe(200);
    const { url } = res.json() as { url: string };
    expect(url).toMatch(/^\/image\/detail\/\d+$/);
    expect(await availableBalance(t.ctx.db, u.id)).toBe(500);

    const id = url.split('/').pop();
    const picture = (await client.get(`/api/pictures/${id}`)).json();
    expect(picture).toMatchObject({
      authorId: u.id,
      authorName: u.username,
      width: 800,
      height: 600,
      totalAmount: 500,
      purchases: [{ amount: 500 }],
      earlierPurchases: null,
      commentCount: 0,
    });
    expect(picture.url).toMatch(/^\/images\/[0-9a-f]{64}\.jpg$/);
    expect(picture.createdOn).toBe(picture.lastAuthorPayment);
    // 1000 × 500 cents at the moment of payment, a hair less by the time the detail is read.
    expect(picture.trendingScore).toBeGreaterThan(450_000);
    expect(picture.trendingScore).toBeLessThanOrEqual(500_000);

    const image = await t.client().get(picture.url);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(image.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await sharp(image.rawPayload).metadata()).format).toBe('jpeg');
  });

  it('takes PNG, WebP and GIF files and stores them as JPEG', async () => {
    const u = await makeUser(t.ctx, { balance: 1000 });
    const client = await signIn(t, u.id);
    for (const format of ['png', 'webp', 'gif'] as const) {
      const data = await imageOf(300, 300, format);
      const res = await upload(client, 100, { filename: `a.${format}`, contentType: `image/${format}`, data });
      expect(res.statusCode, format).toBe(200);
    }
    expect(await availableBalance(t.ctx.db, u.id)).toBe(700);
  });

  it('removes EXIF data (camera, location) from the served file and applies its orientation', async () => {
    const u = await makeUser(t.ctx, { balance: 1000 });
    const client = await signIn(t, u.id);
    const withExif = await sharp(await imageOf(400, 300))
      .withMetadata({ orientation: 6 })
      .withExifMerge({ IFD0: { Copyright: 'Secret Person', Make: 'SpyCam' } })
      .jpeg()
      .toBuffer();
    expect((await sharp(withExif).metadata()).exif).toBeDefined();

    const res = await upload(client, 100, jpegPart(withExif));
    expect(res.statusCode).toBe(200);
    const picture = (await client.get(`/api/pictures/${(res.json() as { url: string }).url.split('/').pop()}`)).json();
    expect([picture.width, picture.height]).toEqual([300, 400]);
    const served = await t.client().get(picture.url);
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(served.rawPayload.includes(Buffer.from('Secret Person'))).toBe(false);
  });

  it('scales a large picture so its shorter side is 1080', async () => {
    const u = await makeUser(t.ctx, { balance: 1000 });
    const res = await upload(await signIn(t, u.id), 100, jpegPart(await imageOf(2400, 1600)));
    const picture = (
      await t.client().get(`/api/pictures/${(res.json() as { url: string }).url.split('/').pop()}`)
    ).json();
    expect([picture.width, picture.height]).toEqual([1620, 1080]);
  });

  it('refuses a signed-out upload', async () => {
    const res = await upload(t.client(), 100, jpegPart(await imageOf(300, 300)));
    expect(res.statusCode).toBe(401);
  });

  it.each([
    ['empty', ''],
    ['zero', '0'],
    ['negative', '-100'],
    ['not a number', 'ten dollars'],
    ['a fraction', '1.5'],
    ['more than six digits of dollars', '100000000'],
    ['huge', '9'.repeat(40)],
    // docs/product.md#upload: whole dollars, digits only, starting 1-9 (issue 22, item 24).
    ['padded with a space', ' 100'],
    ['followed by a space', '100 '],
    ['cents that are not whole dollars', '150'],
    ['one cent', '1'],
    ['written with a leading zero', '0100'],
  ])('refuses a price that is %s and charges nothing', async (_what, amount) => {
    const u = await makeUser(t.ctx, { balance: 1000 });
    const res = await upload(await signIn(t, u.id), amount, jpegPart(await imageOf(300, 300)));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual([{ field: 'amount', errorText: expect.any(String) }]);
    expect(await availableBalance(t.ctx.db, u.id)).toBe(1000);
    expect(await pictureCountOf(u.id)).toBe(0);
  });

  it('refuses an upload without a price', async () => {
    const u = await makeUser(t.ctx, { balance: 1000 });
    const res = await upload(await signIn(t, u.id), undefined, jpegPart(await imageOf(300, 300)));
    expect(res.statusCode).toBe(400);
    expect(res.json()[0].field).toBe('amount');
  });

  it.each([
    [
      'a text file named .png',
      async () => ({ filename: 'x.png', contentType: 'image/png', data: Buffer.from('hello, I am text') }),
    ],
    ['an empty file', async () => jpegPart(Buffer.alloc(0))],
    ['100x100 (too small)', async () => jpegPart(await imageOf(100, 100))],
    ['3:1 (too wide)', async () => jpegPart(await imageOf(600, 200))],
    ['1:3 (too tall)', async () => jpegPart(await imageOf(200, 600))],
    [
      'an SVG',
      async () => ({
        filename: 'a.svg',
        contentType: 'image/svg+xml',
        data: Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300"><rect width="300" height="300"/></svg>',
        ),
      }),
    ],
    ['over 4 MiB', async () => jpegPart(Buffer.concat([await imageOf(300, 300), Buffer.alloc(4_194_304)]))],
    ['far over 4 MiB', async () => jpegPart(Buffer.alloc(6_000_000, 1))],
  ])('refuses %s and charges nothing', async (_what, file) => {
    const u = await makeUser(t.ctx, { balance: 1000 });
    const res = await upload(await signIn(t, u.id), 100, await file());
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual([{ field: 'file', errorText: expect.any(String) }]);
    expect(await availableBalance(t.ctx.db, u.id)).toBe(1000);
    expect(await pictureCountOf(u.id)).toBe(0);
  });

  it('names the small and the large image with the spec words', async () => {
    const u = await makeUser(t.ctx, { balance: 1000 });
    const client = await signIn(t, u.id);
    expect((await upload(client, 100, jpegPart(await imageOf(100, 100)))).json()[0].errorText).toBe('Image too small.');
    expect((await upload(client, 100, jpegPart(Buffer.alloc(6_000_000, 1)))).json()[0].errorText).toBe(
      'Image too large.',
    );
  });

  it('refuses a JSON body instead of a form with 415', async () => {
    const u = await makeUser(t.ctx, { balance: 1000 });
    const client = await signIn(t, u.id);
    const res = await client.post('/api/payment/checkout-with-image-upload', { amount: 100, file: 'x' });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ message: expect.stringContaining('multipart/form-data') });
  });

  it('refuses a form without a file', async () => {
    const u = await makeUser(t.ctx, { balance: 1000 });
    const res = await upload(await signIn(t, u.id), 100, undefined);
    expect(res.statusCode).toBe(400);
    expect(res.json()[0].field).toBe('file');
  });

  it('answers 402 with what is missing when the balance is one cent short, and creates nothing', async () => {
    const u = await makeUser(t.ctx, { balance: 499 });
    const res = await upload(await signIn(t, u.id), 500, jpegPart(await imageOf(300, 300)));
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ missing: 1 });
    expect(await availableBalance(t.ctx.db, u.id)).toBe(499);
    expect(await pictureCountOf(u.id)).toBe(0);
  });

  it('stores no file when the upload is refused for want of money (402), and the file once it is paid', async () => {
    const u = await makeUser(t.ctx, { balance: 100 });
    const client = await signIn(t, u.id);
    const before = storedFiles();
    for (let i = 0; i < 3; i++) {
      const res = await upload(client, 500, jpegPart(await imageOf(310 + i, 300)));
      expect(res.statusCode).toBe(402);
    }
    expect(storedFiles()).toEqual(before);

    const paid = await upload(client, 100, jpegPart(await imageOf(310, 300)));
    expect(paid.statusCode).toBe(200);
    const picture = (await client.get(`/api/pictures/${(paid.json() as { url: string }).url.split('/').pop()}`)).json();
    // The base file and its variants (the srcset lists name every one of them).
    const named = Object.values(picture.sources as Record<string, string>)
      .flatMap((list) => list.split(', '))
      .map((entry) => entry.split(' ')[0]!.split('/').pop()!);
    expect(named).toContain(picture.url.split('/').pop());
    expect(storedFiles()).toEqual([...before, ...named].sort());
    expect((await t.client().get(picture.url)).statusCode).toBe(200);
  });

  it('creates and charges once when the same upload is replayed with its Idempotency-Key', async () => {
    const u = await makeUser(t.ctx, { balance: 1000 });
    const client = await signIn(t, u.id);
    const file = jpegPart(await imageOf(320, 240));
    const key = { 'idempotency-key': 'upload-once' };
    const [first, second] = await Promise.all([upload(client, 300, file, key), upload(client, 300, file, key)]);
    const third = await upload(client, 300, file, key);
    expect([first.statusCode, second.statusCode, third.statusCode]).toEqual([200, 200, 200]);
    expect(second.json()).toEqual(first.json());
    expect(third.json()).toEqual(first.json());
    expect(await availableBalance(t.ctx.db, u.id)).toBe(700);
    expect(await pictureCountOf(u.id)).toBe(1);

    const other = await upload(client, 400, file, key);
    expect(other.statusCode).toBe(400);
    expect(other.json()[0].field).toBe('Idempotency-Key');
  });

  it('answers 404 for an image that is not stored, and never reads outside the store', async () => {
    expect((await t.client().get(`/images/${'a'.repeat(64)}.jpg`)).statusCode).toBe(404);
    expect((await t.client().get('/images/..%2F..%2Fetc%2Fpasswd')).statusCode).toBe(404);
  });

  it('keeps the books balanced', async () => {
    expect((await checkConservation(t.ctx.db)).ok).toBe(true);
  });
});

describe('the per-user upload limit', () => {
  let limited: TestApp;
  let limitedDir: string;
  beforeAll(async () => {
    limitedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wall-upload-limit-'));
    limited = await startTestApp({ config: { dataDir: limitedDir, uploadRateLimit: 2 } });
  });
  afterAll(async () => {
    await limited.close();
    fs.rmSync(limitedDir, { recursive: true, force: true });
  });

  it('answers 429 past the limit, saying how long to wait, and charges nothing; other users upload on', async () => {
    const greedy = await makeUser(limited.ctx, { balance: 10_000 });
    const other = await makeUser(limited.ctx, { balance: 10_000 });
    const client = await signIn(limited, greedy.id);
    const file = jpegPart(await imageOf(300, 300));
    // Every attempt counts, a refused one too: refusing also costs the server a decode.
    expect((await upload(client, 'ten dollars', file)).statusCode).toBe(400);
    expect((await upload(client, 100, file)).statusCode).toBe(200);

    const refused = await upload(client, 100, jpegPart(await imageOf(320, 300)));
    expect(refused.statusCode).toBe(429);
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(refused.json()).toEqual({
      message: expect.stringMatching(/^Too many uploads\. Try again in \d+ seconds?\.$/),
    });
    expect(await availableBalance(limited.ctx.db, greedy.id)).toBe(9_900);
    expect(await pictureCountOf(greedy.id, limited)).toBe(1);

    expect((await upload(await signIn(limited, other.id), 100, file)).statusCode).toBe(200);
    expect((await checkConservation(limited.ctx.db)).ok).toBe(true);
  });
});
