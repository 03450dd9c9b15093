import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { thumbHashToApproximateAspectRatio, thumbHashToRGBA } from 'thumbhash';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Picture } from '../../../../common/api/pictures';
import { makeUser, signIn } from '../../test/factories';
import { startTestApp, type TestApp } from '../../test/harness';
import { variantWidthsFor } from './image';
import { setPictureRemoved } from './pictures.service';
import { imageOf, jpegPart, upload } from './test-helpers';

/**
 * Every upload is stored at a few widths in AVIF, WebP and JPEG, never wider than the file, with a ThumbHash
 * placeholder (docs/decisions.md "Issue 28, item 4: responsive images"); the route serves each with its type, and
 * a removed picture's variants answer 404 like its base file.
 */

let t: TestApp;
let dataDir: string;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wall-variants-'));
  t = await startTestApp({ config: { dataDir } });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function uploaded(width: number, height: number, face = false): Promise<Picture> {
  const client = await signIn(t, (await makeUser(t.ctx, { balance: 1000 })).id);
  const res = await upload(client, 100, jpegPart(await imageOf(width, height)));
  expect(res.statusCode).toBe(200);
  const id = (res.json() as { url: string }).url.split('/').pop();
  if (face) {
    const worn = await client.request({ method: 'PUT', url: `/api/user/profile?imageId=${id}` });
    expect(worn.statusCode).toBe(200);
  }
  return (await t.client().get(`/api/pictures/${id}`)).json() as Picture;
}

/** A srcset list as [url, width] pairs. */
const entries = (srcset: string) =>
  srcset.split(', ').map((e) => {
    const [url, w] = e.split(' ');
    return [url!, Number(w!.replace(/w$/, ''))] as const;
  });

const CONTENT_TYPES = { avif: 'image/avif', webp: 'image/webp', jpeg: 'image/jpeg' } as const;
/** sharp names AVIF by its container. */
const SHARP_FORMATS = { avif: 'heif', webp: 'webp', jpeg: 'jpeg' } as const;

describe('picture variants', () => {
  it('caps every width at the file, and keeps at least one', () => {
    expect(variantWidthsFor(1080)).toEqual([360, 720, 1080]);
    expect(variantWidthsFor(1620)).toEqual([360, 720, 1080]);
    expect(variantWidthsFor(900)).toEqual([360, 720, 900]);
    expect(variantWidthsFor(500)).toEqual([360, 500]);
    expect(variantWidthsFor(200)).toEqual([200]);
  });

  it('stores AVIF, WebP and JPEG at 360, 720 and 1080 px, served with their content types', async () => {
    const picture = await uploaded(1500, 2000); // stored at 1080 × 1440
    expect([picture.width, picture.height]).toEqual([1080, 1440]);
    expect(picture.sources).not.toBeNull();
    const sources = picture.sources!;
    expect(entries(sources.avif).map(([, w]) => w)).toEqual([360, 720, 1080]);
    expect(entries(sources.webp).map(([, w]) => w)).toEqual([360, 720, 1080]);
    // The JPEG list ends with the base file itself, the widest JPEG.
    expect(entries(sources.jpeg)).toEqual([
      [expect.stringMatching(/^\/images\/[0-9a-f]{64}-360\.jpg$/), 360],
      [expect.stringMatching(/^\/images\/[0-9a-f]{64}-720\.jpg$/), 720],
      [picture.url, 1080],
    ]);
    const hash = picture.url.split('/').pop()!.slice(0, 64);
    for (const format of ['avif', 'webp', 'jpeg'] as const) {
      for (const [url, width] of entries(sources[format])) {
        if (url !== picture.url) expect(url).toBe(`/images/${hash}-${width}.${format === 'jpeg' ? 'jpg' : format}`);
        const res = await t.client().get(url);
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['content-type'], url).toBe(CONTENT_TYPES[format]);
        expect(res.headers['cache-control'], url).toMatch(/immutable/);
        const meta = await sharp(res.rawPayload).metadata();
        expect(meta.format, url).toBe(SHARP_FORMATS[format]);
        expect([meta.width, meta.height], url).toEqual([width, Math.round((width * 1440) / 1080)]);
      }
    }
  });

  it('never scales a picture up: a small one has its own width only', async () => {
    const picture = await uploaded(300, 200);
    const sources = picture.sources!;
    expect(entries(sources.avif).map(([, w]) => w)).toEqual([300]);
    expect(entries(sources.webp).map(([, w]) => w)).toEqual([300]);
    expect(entries(sources.jpeg)).toEqual([[picture.url, 300]]);
    const avif = await t.client().get(entries(sources.avif)[0]![0]);
    const meta = await sharp(avif.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([300, 200]);
  });

  it('has a ThumbHash placeholder that decodes to a small image of its shape and colour', async () => {
    const picture = await uploaded(600, 800);
    expect(picture.placeholder).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const hash = Buffer.from(picture.placeholder!, 'base64');
    expect(hash.length).toBeLessThan(40);
    const { w, h, rgba } = thumbHashToRGBA(hash);
    expect(w).toBeLessThanOrEqual(32);
    expect(h).toBeLessThanOrEqual(32);
    expect(rgba.length).toBe(w * h * 4);
    expect(thumbHashToApproximateAspectRatio(hash)).toBeCloseTo(600 / 800, 1);
    // imageOf paints a solid colour: the placeholder's middle pixel is close to it.
    const mid = (Math.floor(h / 2) * w + Math.floor(w / 2)) * 4;
    const expected = [(600 * 7) % 256, (800 * 13) % 256, 120];
    for (let c = 0; c < 3; c++) expect(Math.abs(rgba[mid + c]! - expected[c]!)).toBeLessThan(24);
  });

  it("draws the author's face from the narrowest WebP of their profile picture", async () => {
    const picture = await uploaded(900, 1200, true);
    const hash = picture.url.split('/').pop()!.slice(0, 64);
    expect(picture.authorProfileUrl).toBe(`/images/${hash}-360.webp`);
    const face = await t.client().get(picture.authorProfileUrl!);
    expect(face.statusCode).toBe(200);
    expect(face.headers['content-type']).toBe('image/webp');
  });

  it('answers 404 for every variant of a removed picture, like its base file', async () => {
    const picture = await uploaded(800, 800);
    const urls = Object.values(picture.sources!).flatMap((list) => entries(list).map(([url]) => url));
    expect(urls.length).toBe(9); // AVIF and WebP at 360, 720 and 800; JPEG at 360, 720 and the base file
    for (const url of urls) expect((await t.client().get(url)).statusCode, url).toBe(200);
    expect(await setPictureRemoved(t.ctx.db, picture.id, new Date())).toBe(true);
    for (const url of urls) {
      const res = await t.client().get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ message: 'Image not found' });
    }
  });
});
