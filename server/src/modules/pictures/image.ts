import { createHash } from 'node:crypto';
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { fieldError } from '../../http/errors';

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

export interface ProcessedImage {
  bytes: Buffer;
  hash: string;
  contentType: 'image/jpeg';
  width: number;
  height: number;
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
  return {
    bytes: out.data,
    hash: createHash('sha256').update(out.data).digest('hex'),
    contentType: 'image/jpeg',
    width: out.info.width,
    height: out.info.height,
  };
}
