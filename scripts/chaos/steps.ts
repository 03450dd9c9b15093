import { setTimeout as sleep } from 'node:timers/promises';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import sharp from 'sharp';
import { setAdmin } from '../../server/src/admin/admins';
import type { Db } from '../../server/src/db/connection';
import type { Answer, Session, Traffic } from './traffic';

/** User actions more than one actor takes: a top-up through the demo provider, a picture upload, lootboxes. */

/** Checkout, then Pay in the demo provider's window. Answers the pay call's answer (200: the money is in). */
export async function topUp(session: Session, amount: number): Promise<Answer> {
  const checkout = await session.settle('checkout', 'POST', '/api/payment/checkout', { json: { amount, url: '/' } });
  if (checkout.status !== 200) return checkout;
  const id = String((checkout.body as { url: string }).url.split('/').pop());
  return session.pay('top-up', 'POST', `/api/payment/demo/${id}/pay`);
}

let colour = 0;

/** A small PNG no other upload of the run has: a solid colour of its own, 128 to 255 pixels a side. */
export async function freshPng(): Promise<Buffer> {
  const n = ++colour;
  const side = 128 + (n % 128);
  const background = { r: n % 256, g: Math.floor(n / 256) % 256, b: (n * 37) % 256 };
  return sharp({ create: { width: side, height: side, channels: 3, background } })
    .png()
    .toBuffer();
}

/** Uploads a picture at `amount` cents (its first purchase). Answers `{url: /image/detail/ID}` on 200. */
export async function upload(session: Session, amount: number): Promise<Answer> {
  const png = await freshPng();
  const title = `chaos ${colour}`;
  return session.pay('upload', 'POST', '/api/payment/checkout-with-image-upload', {
    form: () => {
      const form = new FormData();
      form.set('amount', String(amount));
      form.set('title', title);
      form.set('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'chaos.png');
      return form;
    },
  });
}

/** `count` keys bought, then as many free boxes taken and opened, one at a time (a user holds at most 10 boxes). */
export async function openLootboxes(session: Session, count: number): Promise<void> {
  await session.pay('keys', 'POST', '/api/purchase/key', { json: { keyCount: count, balance: 0 } });
  for (let i = 0; i < count; i++) {
    await session.pay('lootbox', 'POST', '/api/purchase/lootbox', { json: {} });
    await session.pay('open', 'POST', '/api/open/lootbox', { json: {} });
  }
}

export const pictureIdOf = (answer: Answer): number => Number((answer.body as { url: string }).url.split('/').pop());

export const randomInt = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));

/** Makes a user an administrator as `npm run admin -- grant` does, retried while PostgreSQL is being restarted. */
export async function grantAdmin(t: Traffic, username: string): Promise<void> {
  for (;;) {
    const client = new pg.Client({ connectionString: t.databaseUrl, connectionTimeoutMillis: 5_000 });
    try {
      await client.connect();
      if ((await setAdmin(drizzle(client) as unknown as Db, username, true)) === username) return;
      throw new Error(`no user ${username}`);
    } catch (err) {
      if (!t.settling) throw err;
      await sleep(500);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}
