/**
 * What the upload page does to a chosen image before sending it (docs/product.md#upload): refuse small ones, crop to
 * between 9:16 and 16:9 around the centre, scale so the shorter side is 1080 when both sides exceed it, and refuse
 * a result over 4 MiB. The server checks the same limits again; these decisions only spare the user a round trip.
 */
export const MIN_UPLOAD_SIDE = 128;
export const SCALED_UPLOAD_SIDE = 1080;
export const MAX_UPLOAD_BYTES = 4_194_304;

export const UPLOAD_TEXTS = {
  tooSmall: 'Image too small.',
  tooLarge: 'Image too large.',
  notImage: 'Choose an image file.',
  croppedTall: 'Cropped to 9:16 ratio',
  croppedWide: 'Cropped to 16:9 ratio',
} as const;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type UploadPlan =
  | { ok: false; error: string }
  | {
      ok: true;
      /** The part of the source image kept. */
      crop: Rect;
      /** The size the kept part is drawn at. */
      width: number;
      height: number;
      /** Set when the image was cropped, to tell the user. */
      note?: string;
    };

export const isAcceptedImageType = (type: string): boolean => type.startsWith('image/');

/** The crop and the output size for an image of `width` × `height` pixels. */
export function planUpload(width: number, height: number): UploadPlan {
  if (!(width >= MIN_UPLOAD_SIDE && height >= MIN_UPLOAD_SIDE)) return { ok: false, error: UPLOAD_TEXTS.tooSmall };
  let crop: Rect = { x: 0, y: 0, width, height };
  let note: string | undefined;
  if (width * 16 < height * 9) {
    const kept = Math.round((width * 16) / 9);
    crop = { x: 0, y: Math.floor((height - kept) / 2), width, height: kept };
    note = UPLOAD_TEXTS.croppedTall;
  } else if (width * 9 > height * 16) {
    const kept = Math.round((height * 16) / 9);
    crop = { x: Math.floor((width - kept) / 2), y: 0, width: kept, height };
    note = UPLOAD_TEXTS.croppedWide;
  }
  const shorter = Math.min(crop.width, crop.height);
  const scale = crop.width > SCALED_UPLOAD_SIDE && crop.height > SCALED_UPLOAD_SIDE ? SCALED_UPLOAD_SIDE / shorter : 1;
  return {
    ok: true,
    crop,
    width: Math.round(crop.width * scale),
    height: Math.round(crop.height * scale),
    ...(note ? { note } : {}),
  };
}

/** The error for an encoded result of `bytes`, or undefined when it may be sent. */
export const uploadSizeError = (bytes: number): string | undefined =>
  bytes > MAX_UPLOAD_BYTES ? UPLOAD_TEXTS.tooLarge : undefined;

/** The upload price field: whole dollars, digits only, starting 1–9, at most six digits. */
export const isValidUploadPrice = (text: string): boolean => /^[1-9]\d{0,5}$/.test(text);

export const UPLOAD_PRICE_TEXTS = {
  missing: 'Enter a price.',
  invalid: 'The price must be a whole number of dollars, from $1 to $999,999.',
} as const;

/**
 * The upload's `amount` form field, in cents, as the browser sends a price `isValidUploadPrice` accepts (dollars
 * times 100): the same rule on the server, so " 100" or 150 (cents that are not whole dollars) are refused. The
 * number of cents, or the text saying what is wrong.
 */
export function parseUploadAmount(field: string | undefined): { cents: number } | { error: string } {
  if (field === undefined || field === '') return { error: UPLOAD_PRICE_TEXTS.missing };
  if (!field.endsWith('00') || !isValidUploadPrice(field.slice(0, -2))) return { error: UPLOAD_PRICE_TEXTS.invalid };
  return { cents: Number(field) };
}

/**
 * The size of an exported share image (docs/product.md#upload): the shorter side scaled to 1080 and the longer capped at 1920, so
 * a 9:16 picture exports at 1080 × 1920 and a wider one is cropped to fit.
 */
export function shareExportSize(width: number, height: number): { width: number; height: number } {
  const scale = 1080 / Math.min(width, height);
  const w = Math.min(1920, Math.round(width * scale));
  const h = Math.min(1920, Math.round(height * scale));
  return { width: w, height: h };
}
