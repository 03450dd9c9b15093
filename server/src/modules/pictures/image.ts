import { createHash } from 'node:crypto';
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';
import { fieldError } from '../../http/errors';
import { VARIANT_FORMATS, variantName, type VariantFormat } from '../../storage/storage';

/** docs/product.md#upload: the browser crops and scales; the server checks again and never trusts the client's file. */
export const MIN_SIDE = 128;
export const MAX_UPLOAD_BYTES = 4_194_304;
/** Shorter side of the stored file when both sides are larger (the client scales the same way). */
export const SCALED_SIDE = 1080;
/** Decoding stops past this many pixels, so a small file cannot unpack into gigabytes (a "pixel bomb"). */
export const MAX_INPUT_PIXELS = 40_000_000;
/** A browser's crop to exactly 9:16 can be off by a pixel of rounding; 1% of slack forgives that. */
const RATIO_SLACK = 1.01;
const MIN_RATIO = 9 / 16 / RATIO_SLACK;
const MAX_RATIO = (16 / 9) * RATIO_SLACK;

/** Decoded formats taken, whatever the client says the file is; AVIF decodes as heif with av1 compression. */
const ACCEPTED = new Set(['jpeg', 'png', 'webp', 'gif', 'heif']);

/**
 * Widths the picture is also stored at, in every format of VARIANT_FORMATS, never wider than the file itself
 * (docs/decisions.md "Issue 28, item 4: responsive images"): a phone's two-column card, a phone at 2x or a desktop
 * card, and a desktop card at 2x.
 */
export const VARIANT_WIDTHS = [360, 720, 1080] as const;
/** Encoder settings: fast enough for the upload request (docs/performance.md, "Pictures sized for the screen"). */
const AVIF = { quality: 50, effort: 2 } as const;
const WEBP = { quality: 78, effort: 3 } as const;
const JPEG = { quality: 82, mozjpeg: true } as const;
/** ThumbHash takes at most 100 px a side; this is plenty for a blur. */
const PLACEHOLDER_SIDE = 32;

/** One more file of a picture: the base key's hash, a width and a format (`<hash>-<width>.<ext>`). */
export interface ImageVariant {
  /** Its name without extension, as Storage.put takes it. */
  name: string;
  width: number;
  format: VariantFormat;
  bytes: Buffer;
}

/** What an upload's file becomes besides the base JPEG: its variants, their widths, and its placeholder. */
export interface ImageExtras {
  variants: ImageVariant[];
  /** The widths stored in every format, ascending (the column `variant_widths`). */
  variantWidths: number[];
  /** The ThumbHash of the picture, base64 (the column `placeholder`). */
  placeholder: string;
}

export interface ProcessedImage extends ImageExtras {
  bytes: Buffer;
  hash: string;
  contentType: 'image/jpeg';
  width: number;
  height: number;
}

/** The widths of VARIANT_WIDTHS a file this wide is stored at: each one capped at the file's own width. */
export function variantWidthsFor(width: number): number[] {
  return [...new Set(VARIANT_WIDTHS.map((w) => Math.min(w, width)))];
}

/**
 * The variants and placeholder of a base JPEG (already checked and re-encoded): AVIF and WebP at every width of
 * `variantWidthsFor`, JPEG at those narrower than the base file (the base file is the widest JPEG). Encoded in
 * parallel; libvips spreads them over its threads.
 */
export async function encodeExtras(base: Buffer, hash: string, width: number): Promise<ImageExtras> {
  const widths = variantWidthsFor(width);
  const source = sharp(base, { limitInputPixels: MAX_INPUT_PIXELS });
  const jobs: Promise<ImageVariant>[] = [];
  for (const w of widths) {
    for (const format of VARIANT_FORMATS) {
      if (format === 'jpeg' && w >= width) continue;
      const resized = w < width ? source.clone().resize({ width: w }) : source.clone();
      const encoded =
        format === 'avif' ? resized.avif(AVIF) : format === 'webp' ? resized.webp(WEBP) : resized.jpeg(JPEG);
      jobs.push(encoded.toBuffer().then((bytes) => ({ name: variantName(hash, w), width: w, format, bytes })));
    }
  }
  const thumb = source
    .clone()
    .resize(PLACEHOLDER_SIDE, PLACEHOLDER_SIDE, { fit: 'inside' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const [variants, small] = await Promise.all([Promise.all(jobs), thumb]);
  const placeholder = Buffer.from(rgbaToThumbHash(small.info.width, small.info.height, small.data)).toString('base64');
  return { variants, variantWidths: widths, placeholder };
}

const bad = (errorText: string) => fieldError('file', errorText);

/**
 * Checks an uploaded file and re-encodes it: decoded with a pixel limit, oriented by its EXIF tag, at least
 * MIN_SIDE a side, aspect between 9:16 and 16:9, then written as a fresh JPEG without any metadata (sharp keeps
 * none unless asked), so camera details and locations never reach other users.
 */
export async function processUpload(input: Buffer): Promise<ProcessedImage> {
  if (input.length === 0) throw bad('Choose an image.');
  if (input.length > MAX_UPLOAD_BYTES) throw bad('Image too large.');
  const options = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' as const };

  let meta: Metadata;
  try {
    meta = await sharp(input, options).metadata();
  } catch {
    throw bad('This file is not an image we can read.');
  }
  if (!ACCEPTED.has(meta.format) || (meta.format === 'heif' && meta.compression !== 'av1')) {
    throw bad('Only JPEG, PNG, WebP, GIF and AVIF images are accepted.');
  }
  const { width, height } = meta.autoOrient ?? meta;
  if (!width || !height || width * height > MAX_INPUT_PIXELS) throw bad('Image too large.');
  if (width < MIN_SIDE || height < MIN_SIDE) throw bad('Image too small.');
  const ratio = width / height;
  if (ratio < MIN_RATIO) throw bad('The image is taller than 9:16.');
  if (ratio > MAX_RATIO) throw bad('The image is wider than 16:9.');

  let pipeline = sharp(input, options).autoOrient();
  if (Math.min(width, height) > SCALED_SIDE) {
    pipeline = pipeline.resize(width < height ? { width: SCALED_SIDE } : { height: SCALED_SIDE });
  }
  let out: { data: Buffer; info: OutputInfo };
  try {
    out = await pipeline
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 86, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw bad('This file is not an image we can read.');
  }
  if (out.data.length > MAX_UPLOAD_BYTES) throw bad('Image too large.');
  const hash = createHash('sha256').update(out.data).digest('hex');
  return {
    bytes: out.data,
    hash,
    contentType: 'image/jpeg',
    width: out.info.width,
    height: out.info.height,
    ...(await encodeExtras(out.data, hash, out.info.width)),
  };
}
