import path from 'node:path';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expect } from './fixtures';

/** A plain picture of one colour, encoded as PNG. */
export function makeImage(width: number, height: number, hue = Math.floor(Math.random() * 360)): Promise<Buffer> {
  const [r, g, b] = hsl(hue);
  return sharp({ create: { width, height, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();
}

function hsl(h: number): [number, number, number] {
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (0.55 - 0.35 * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

/** Adds money through the demo card provider, as the payment window would (the journey spec does it by the page). */
export async function topUp(page: Page, cents: number): Promise<void> {
  const res = await page.request.post('/api/payment/checkout', { data: { amount: cents, url: '/' } });
  expect(res.status(), await res.text()).toBe(200);
  const id = ((await res.json()) as { url: string }).url.split('/').pop();
  const paid = await page.request.post(`/api/payment/demo/${id}/pay`, { data: {} });
  expect(paid.status(), await paid.text()).toBe(200);
}

/** Uploads a picture through the API for `cents`; answers its id. */
export async function uploadPicture(page: Page, cents: number, size: [number, number] = [400, 500]): Promise<number> {
  const res = await page.request.post('/api/payment/checkout-with-image-upload', {
    multipart: {
      amount: String(cents),
      file: { name: 'p.png', mimeType: 'image/png', buffer: await makeImage(...size) },
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return Number(((await res.json()) as { url: string }).url.split('/').pop());
}

/** The largest fund on the wall now, in cents (0 when empty). */
export async function topTotal(page: Page): Promise<number> {
  const res = await page.request.get('/api/pictures?sort=top&limit=1');
  const [first] = (await res.json()) as { totalAmount: number }[];
  return first?.totalAmount ?? 0;
}

export async function myId(page: Page): Promise<number> {
  return ((await (await page.request.get('/api/user/profile')).json()) as { id: number }).id;
}

/** Screenshots of this spec's screens go beside the shell's, into e2e-screenshots/<run name>/. */
export const shot = (project: string, name: string) =>
  path.join('e2e-screenshots', process.env.E2E_RUN_NAME!, `${project}-${name}.png`);
