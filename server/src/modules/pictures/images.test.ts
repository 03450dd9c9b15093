import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser, signIn } from '../../test/factories';
import { startTestApp, type TestApp } from '../../test/harness';
import { imageOf, jpegPart, upload } from './test-helpers';

/**
 * /images/ serves stored files and nothing else (issue 22, item 21): a key that names no stored file is a 404 in the
 * contract's {message} form, whatever its length or shape, and never the web client's page. The app here serves the
 * built client, as it does in production, so a miss that fell through to its pages would show.
 */

let t: TestApp;
let dataDir: string;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'images-test-'));
  t = await startTestApp({ config: { dataDir, serveWeb: true } });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('GET /images/{key}', () => {
  it('serves a stored image', async () => {
    const client = await signIn(t, (await makeUser(t.ctx, { balance: 1000 })).id);
    const paid = await upload(client, 100, jpegPart(await imageOf(300, 300)));
    expect(paid.statusCode).toBe(200);
    const id = (paid.json() as { url: string }).url.split('/').pop();
    const picture = (await client.get(`/api/pictures/${id}`)).json() as { url: string };
    const res = await t.client().get(picture.url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\//);
  });

  it('answers 404 {message} for any key that names no stored file, never the app page', async () => {
    const misses = [
      `${'a'.repeat(64)}.jpg`,
      'a'.repeat(81),
      'a'.repeat(101),
      'b'.repeat(5000),
      `${'a'.repeat(64)}.jpg/more`,
      'a/b/c',
      '',
      '..%2F..%2Fetc%2Fpasswd',
    ];
    for (const key of misses) {
      const res = await t.client().get(`/images/${key}`);
      expect(res.statusCode, `/images/${key.slice(0, 30)}… (${key.length})`).toBe(404);
      expect(res.headers['content-type'], key.slice(0, 30)).toMatch(/^application\/json/);
      expect(Object.keys(res.json() as object), key.slice(0, 30)).toEqual(['message']);
    }
  });
});
