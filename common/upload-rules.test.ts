import { describe, expect, it } from 'vitest';
import {
  isAcceptedImageType,
  isValidUploadPrice,
  parseUploadAmount,
  planUpload,
  shareExportSize,
  UPLOAD_PRICE_TEXTS,
  uploadSizeError,
} from './upload-rules';

describe('the upload plan', () => {
  it('refuses an image under 128 pixels on a side', () => {
    expect(planUpload(127, 400)).toEqual({ ok: false, error: 'Image too small.' });
    expect(planUpload(400, 100)).toEqual({ ok: false, error: 'Image too small.' });
  });

  it('keeps a small image within the ratios as it is', () => {
    expect(planUpload(128, 128)).toEqual({
      ok: true,
      crop: { x: 0, y: 0, width: 128, height: 128 },
      width: 128,
      height: 128,
    });
  });

  it('crops a very tall image to 9:16 around its centre and says so', () => {
    const plan = planUpload(900, 3000);
    expect(plan).toEqual({
      ok: true,
      crop: { x: 0, y: 700, width: 900, height: 1600 },
      width: 900,
      height: 1600,
      note: 'Cropped to 9:16 ratio',
    });
  });

  it('crops a very wide image to 16:9 and says so', () => {
    const plan = planUpload(1000, 200);
    expect(plan.ok && plan.note).toBe('Cropped to 16:9 ratio');
    expect(plan.ok && plan.crop).toEqual({ x: 322, y: 0, width: 356, height: 200 });
  });

  it('scales so the shorter side is 1080 when both sides exceed 1080', () => {
    expect(planUpload(4000, 3000)).toMatchObject({ ok: true, width: 1440, height: 1080 });
    // One side at or under 1080: not scaled.
    expect(planUpload(1080, 1900)).toMatchObject({ ok: true, width: 1080, height: 1900 });
  });

  it('scales a cropped image by its kept part', () => {
    expect(planUpload(2000, 8000)).toMatchObject({
      ok: true,
      width: 1080,
      height: 1920,
      note: 'Cropped to 9:16 ratio',
    });
  });

  it('refuses a result over 4194304 bytes', () => {
    expect(uploadSizeError(4_194_304)).toBeUndefined();
    expect(uploadSizeError(4_194_305)).toBe('Image too large.');
  });

  it('accepts only image types', () => {
    expect(isAcceptedImageType('image/png')).toBe(true);
    expect(isAcceptedImageType('application/pdf')).toBe(false);
  });

  it('takes a price of whole dollars starting 1 to 9, at most six digits', () => {
    expect(isValidUploadPrice('5')).toBe(true);
    expect(isValidUploadPrice('999999')).toBe(true);
    for (const bad of ['', '0', '05', '1.5', '1000000', '-3', '2e3']) expect(isValidUploadPrice(bad)).toBe(false);
  });

  it('reads the amount field in cents by the same rule: a whole-dollar price, digits only', () => {
    expect(parseUploadAmount('100')).toEqual({ cents: 100 });
    expect(parseUploadAmount('99999900')).toEqual({ cents: 99_999_900 });
    expect(parseUploadAmount(undefined)).toEqual({ error: UPLOAD_PRICE_TEXTS.missing });
    expect(parseUploadAmount('')).toEqual({ error: UPLOAD_PRICE_TEXTS.missing });
    for (const bad of [' 100', '100 ', '150', '1', '00', '0100', '100.00', '+100', '1e2', '100000000', '１００']) {
      expect(parseUploadAmount(bad), bad).toEqual({ error: UPLOAD_PRICE_TEXTS.invalid });
    }
    // Whatever the browser accepts and sends (dollars times 100), the server takes.
    for (const dollars of ['1', '7', '10', '999999']) {
      expect(isValidUploadPrice(dollars)).toBe(true);
      expect(parseUploadAmount(String(Number(dollars) * 100))).toEqual({ cents: Number(dollars) * 100 });
    }
  });
});

describe('the share export size', () => {
  it('makes the shorter side 1080 and caps the longer at 1920', () => {
    expect(shareExportSize(900, 1600)).toEqual({ width: 1080, height: 1920 });
    expect(shareExportSize(1000, 1000)).toEqual({ width: 1080, height: 1080 });
    expect(shareExportSize(4000, 1000)).toEqual({ width: 1920, height: 1080 });
  });
});
