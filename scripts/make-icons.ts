/**
 * The installable app's icons (docs/product.md#push, docs/decisions.md "Issue 27: the service worker and the
 * manifest"), drawn once with sharp from web/public/favicon.svg and committed under web/public/icons/: 192 and 512 px
 * (purpose any), a 512 px maskable one whose mark keeps to the central safe zone (a circle of 80% of the side) on the
 * brand's colour, and Apple's 180 px touch icon.
 *
 *   npx tsx scripts/make-icons.ts
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'web/public/icons');
const svg = readFileSync(path.join(root, 'web/public/favicon.svg'));
/** The favicon's square colour: the maskable icon's background, so a cropped mask shows no other colour. */
const BRAND = '#0f766e';

const plain = (size: number) =>
  sharp(svg, { density: (72 * size) / 32 })
    .resize(size, size)
    .png({ compressionLevel: 9 });

async function maskable(size: number, file: string) {
  // The mark at 60% of the side sits inside the safe zone (the inner 80% circle) whatever shape the system cuts.
  const inner = Math.round(size * 0.6);
  const mark = await plain(inner).toBuffer();
  await sharp({ create: { width: size, height: size, channels: 4, background: BRAND } })
    .composite([{ input: mark, gravity: 'center' }])
    .png({ compressionLevel: 9 })
    .toFile(path.join(out, file));
}

await plain(192).toFile(path.join(out, 'icon-192.png'));
await plain(512).toFile(path.join(out, 'icon-512.png'));
await maskable(512, 'icon-maskable-512.png');
// Apple draws its own rounded corners and shows transparency as black: the maskable drawing, full bleed.
await maskable(180, 'apple-touch-icon.png');
console.log(`Icons written to ${path.relative(root, out)}/`);
