import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OUT_OF_SPACE_TEXT } from '../../../common/errors';
import { checkConservation } from '../ledger/conservation';
import { availableBalance } from '../ledger/ledger';
import { imageOf, jpegPart, upload } from '../modules/pictures/test-helpers';
import { makeUser, signIn } from '../test/factories';
import { startTestApp, type TestApp } from '../test/harness';

/**
 * An upload on a full disk (issue 22 item 29): the image file's write fails halfway with ENOSPC. The answer is 507
 * with a sentence for people, nobody is charged, and no partial file stays behind.
 */
describe('an upload when the disk is full', () => {
  let t: TestApp;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wall-full-'));
    t = await startTestApp({ config: { dataDir } });
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const imagesDir = () => path.join(dataDir, 'images');
  const filesLeft = () => (fs.existsSync(imagesDir()) ? fs.readdirSync(imagesDir()) : []);

  /** Image writes land part of their bytes, then find the disk full, as a real write does. */
  function fillTheDisk() {
    const write = fsp.writeFile;
    return vi.spyOn(fsp, 'writeFile').mockImplementation(async (file, data, options) => {
      if (!String(file).startsWith(imagesDir())) return write(file, data, options);
      await write(file, (data as Buffer).subarray(0, Math.floor((data as Buffer).length / 2)));
      throw Object.assign(new Error(`ENOSPC: no space left on device, write`), { code: 'ENOSPC' });
    });
  }

  it('answers 507 in words, charges nothing, creates no picture and leaves no partial file', async () => {
    const u = await makeUser(t.ctx, { balance: 1_000 });
    const client = await signIn(t, u.id);
    const full = fillTheDisk();
    const res = await upload(client, 500, jpegPart(await imageOf(640, 480)));
    full.mockRestore();

    expect(res.statusCode, res.body).toBe(507);
    expect(res.json()).toEqual({ message: OUT_OF_SPACE_TEXT });
    expect(await availableBalance(t.ctx.db, u.id)).toBe(1_000);
    expect((await client.get(`/api/pictures?sort=profile&authorId=${u.id}`)).json()).toEqual([]);
    expect(filesLeft()).toEqual([]);
    expect(await checkConservation(t.ctx.db)).toMatchObject({ ok: true });

    // Room made again: the same upload goes through.
    const again = await upload(client, 500, jpegPart(await imageOf(640, 480)));
    expect(again.statusCode, again.body).toBe(200);
    expect(await availableBalance(t.ctx.db, u.id)).toBe(500);
  });
});
