import { isAcceptedImageType, planUpload, UPLOAD_TEXTS, uploadSizeError } from '../../../../../common/upload-rules';

export type PreparedImage =
  { ok: false; error: string } | { ok: true; blob: Blob; width: number; height: number; note?: string };

const JPEG_QUALITY = 0.9;

/**
 * Turns a chosen file into what is sent: cropped to between 9:16 and 16:9, scaled so its shorter side is 1080
 * when both exceed that, re-encoded as JPEG (which also drops the camera's metadata), then checked for size.
 */
export async function prepareImage(file: File): Promise<PreparedImage> {
  if (!isAcceptedImageType(file.type)) return { ok: false, error: UPLOAD_TEXTS.notImage };
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return { ok: false, error: UPLOAD_TEXTS.notImage };
  }
  try {
    const plan = planUpload(bitmap.width, bitmap.height);
    if (!plan.ok) return plan;
    const canvas = document.createElement('canvas');
    canvas.width = plan.width;
    canvas.height = plan.height;
    const g = canvas.getContext('2d')!;
    g.fillStyle = '#fff';
    g.fillRect(0, 0, plan.width, plan.height);
    const { x, y, width, height } = plan.crop;
    g.drawImage(bitmap, x, y, width, height, 0, 0, plan.width, plan.height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', JPEG_QUALITY));
    if (!blob) return { ok: false, error: UPLOAD_TEXTS.notImage };
    const tooLarge = uploadSizeError(blob.size);
    if (tooLarge) return { ok: false, error: tooLarge };
    return { ok: true, blob, width: plan.width, height: plan.height, ...(plan.note ? { note: plan.note } : {}) };
  } finally {
    bitmap.close();
  }
}
