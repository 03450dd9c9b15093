import { createHash, randomBytes } from 'node:crypto';
import sharp from 'sharp';
import type { AppContext } from '../../context';
import type { TestClient } from '../../test/harness';
import { uploadPicture } from './pictures.commands';

/** A solid JPEG (or another format) of the given size, as a camera or an editor would produce it. */
export function imageOf(
  width: number,
  height: number,
  format: 'jpeg' | 'png' | 'webp' | 'gif' = 'jpeg',
): Promise<Buffer> {
  const colour = { r: (width * 7) % 256, g: (height * 13) % 256, b: 120 };
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .toFormat(format)
    .toBuffer();
}

export interface FilePart {
  filename: string;
  contentType: string;
  data: Buffer;
}

/** A multipart/form-data body the way a browser's FormData sends it. */
export function formData(
  fields: Record<string, string>,
  file?: FilePart,
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----wall${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename}"\r\n` +
          `Content-Type: ${file.contentType}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export async function upload(
  client: TestClient,
  amount: string | number | undefined,
  file: FilePart | undefined,
  headers: Record<string, string> = {},
) {
  const body = formData(amount === undefined ? {} : { amount: String(amount) }, file);
  return client.request({
    method: 'POST',
    url: '/api/payment/checkout-with-image-upload',
    payload: body.payload,
    headers: { ...body.headers, ...headers },
  });
}

export const jpegPart = (data: Buffer): FilePart => ({ filename: 'photo.jpg', contentType: 'image/jpeg', data });

/** A picture straight through the service (no image file), paid for by its author at `now`. */
export async function makePicture(ctx: AppContext, authorId: number, amount: number, now = ctx.now()): Promise<number> {
  const key = `${createHash('sha256').update(randomBytes(8)).digest('hex')}.jpg`;
  return ctx.transact((work) =>
    uploadPicture(work, now, authorId, {
      amount,
      title: '',
      key,
      width: 1080,
      height: 1350,
      variantWidths: null,
      placeholder: null,
    }),
  );
}
