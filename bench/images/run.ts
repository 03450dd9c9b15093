/**
 * Pictures sized for the screen (issue 28, item 4): what an upload's encoding costs, and the image bytes of the demo
 * wall's first batch at phone and desktop width, before (the one base JPEG every screen got) and after (the file a
 * browser picks from the card's `srcset` and `sizes`). Prints only; docs/performance.md keeps the figures.
 *
 *   npx tsx bench/images/run.ts
 *   IMG_RUNS=7 npx tsx bench/images/run.ts        # encodings timed per input (default 5)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { Picture } from '../../common/api/pictures';
import { FIRST_BATCH } from '../../common/wall';
import { encodeExtras, processUpload } from '../../server/src/modules/pictures/image';
import { seedDemoIfEmpty } from '../../server/src/seed/demo';
import { startTestApp } from '../../server/src/test/harness';
import { median } from '../lighthouse/summary';
import { reportFigure } from '../figures';

const RUNS = Math.max(1, Number(process.env.IMG_RUNS ?? 5));
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

/** A photo-like input: smooth colour fields with fine grain, as a camera JPEG. */
async function photo(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  let seed = 7;
  const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const grain = (random() - 0.5) * 24;
      raw[i] = 128 + 90 * Math.sin(x / 170) + grain;
      raw[i + 1] = 128 + 90 * Math.cos(y / 230) + grain;
      raw[i + 2] = 128 + 60 * Math.sin((x + y) / 310) + grain;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .blur(0.8)
    .jpeg({ quality: 90 })
    .toBuffer();
}

async function encodingCost(): Promise<void> {
  console.log(
    `Encoding, median of ${RUNS} runs; ${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)}`,
  );
  for (const [w, h] of [
    [3024, 4032],
    [1536, 2048],
    [1080, 1080],
  ] as const) {
    const input = await photo(w, h);
    await processUpload(input); // warm up libvips
    const totals: number[] = [];
    const extras: number[] = [];
    let sizes = '';
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const out = await processUpload(input);
      totals.push(performance.now() - t0);
      const t1 = performance.now();
      await encodeExtras(out.bytes, out.hash, out.width);
      extras.push(performance.now() - t1);
      sizes = out.variants
        .map((v) => `${v.format} ${v.width}: ${kb(v.bytes.length)}`)
        .concat(`base JPEG ${out.width}: ${kb(out.bytes.length)}`)
        .join(', ');
    }
    const total = median(totals);
    const extra = median(extras);
    console.log(
      `  ${w} × ${h} upload (${kb(input.length)}): ${Math.round(total)} ms with variants; base JPEG alone ` +
        `≈ ${Math.round(Math.max(0, total - extra))} ms, variants and placeholder alone ${Math.round(extra)} ms`,
    );
    console.log(`    ${sizes}`);
  }
}

/** The `srcset` entry a browser takes for a slot of `cssPx` at `dpr`: the narrowest at least that wide. */
function pick(srcset: string, cssPx: number, dpr: number): string {
  const entries = srcset.split(', ').map((e) => {
    const [url, w] = e.split(' ');
    return { url: url!, width: Number(w!.slice(0, -1)) };
  });
  const need = cssPx * dpr;
  return (entries.find((e) => e.width >= need) ?? entries[entries.length - 1]!).url;
}

/** The card's `sizes` (web/src/features/pictures/components/PictureImage.tsx) at a viewport width. */
const slot = (viewport: number) => (viewport <= 673 ? viewport - 34 : 638);

async function wallBytes(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wall-image-bytes-'));
  const t = await startTestApp({ config: { dataDir } });
  try {
    await seedDemoIfEmpty(t.ctx);
    const pictures = (await t.client().get(`/api/pictures?sort=top&offset=0&limit=${FIRST_BATCH}`)).json() as Picture[];
    const size = async (url: string) => (await t.client().get(url)).rawPayload.length;
    // Lighthouse's phone (Moto G Power: 412 px at 1.75) and desktop (1350 px at 1), and a phone at 3x.
    const screens = [
      { name: 'phone 412 px @1.75', viewport: 412, dpr: 1.75 },
      { name: 'phone 390 px @3', viewport: 390, dpr: 3 },
      { name: 'desktop 1350 px @1', viewport: 1350, dpr: 1 },
    ];
    console.log(`\nThe demo wall's first batch (${pictures.length} pictures, top order):`);
    for (const screen of screens) {
      let before = 0;
      const after = { avif: 0, webp: 0, jpeg: 0 };
      for (const p of pictures) {
        before += await size(p.url);
        for (const format of ['avif', 'webp', 'jpeg'] as const) {
          after[format] += await size(p.sources ? pick(p.sources[format], slot(screen.viewport), screen.dpr) : p.url);
        }
      }
      reportFigure({
        bench: 'bench:images',
        figure: `first wall's image bytes on a ${screen.name}, AVIF, share of the base JPEGs`,
        value: Math.round((100 * after.avif) / before),
        unit: '%',
        goal: { atMost: 50 },
        rerun: 'npx tsx bench/images/run.ts',
      });
      console.log(
        `  ${screen.name}: before ${kb(before)} (base JPEGs); after ${kb(after.avif)} AVIF ` +
          `(${Math.round((100 * after.avif) / before)}%), ${kb(after.webp)} WebP, ${kb(after.jpeg)} JPEG`,
      );
    }
    const first = pictures[0]!;
    console.log(
      `  first picture ${first.width} × ${first.height}: base ${kb(await size(first.url))}, phone AVIF ` +
        `${kb(await size(pick(first.sources!.avif, slot(412), 1.75)))}; placeholder ` +
        `${Buffer.from(first.placeholder!, 'base64').length} bytes`,
    );
  } finally {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await encodingCost();
await wallBytes();
