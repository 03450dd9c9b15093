import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { sqlRows } from '../db/connection';
import { checkConservation } from '../ledger/conservation';
import { startTestApp, type TestApp } from '../test/harness';
import type { ChatMessage } from '../../../common/api/chat';
import type { Picture } from '../../../common/api/pictures';
import { checkText, writerOf } from '../../../common/writing';
import { ownedItems } from '../modules/items/items.service';
import { seedDemoIfEmpty } from './demo';

let t: TestApp;
let dataDir: string;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wall-seed-'));
  t = await startTestApp({ config: { dataDir } });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the demo seed', () => {
  it('fills an empty wall with demo_ users and funded pictures that are really served', async () => {
    expect(await seedDemoIfEmpty(t.ctx)).toBe(true);
    const users = await sqlRows(t.ctx.db, sql<{ username: string }>`SELECT username FROM users`);
    expect(users.length).toBeGreaterThanOrEqual(3);
    expect(users.every((u) => u.username.startsWith('demo_'))).toBe(true);

    const wall: Picture[] = (await t.client().get('/api/pictures?limit=100')).json();
    expect(wall).toHaveLength(30);
    expect(wall.filter((p) => p.purchases.length > 1).length).toBeGreaterThan(20);
    expect(wall.every((p) => p.authorProfileUrl?.startsWith('/images/'))).toBe(true);
    const image = await t.client().get(wall[0]!.url);
    expect(image.statusCode).toBe(200);
    const meta = await sharp(image.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([wall[0]!.width, wall[0]!.height]);
    expect((await t.client().get('/api/pictures?sort=trending&limit=100')).json()).toHaveLength(30);
    expect((await checkConservation(t.ctx.db)).ok).toBe(true);
  }); // the demo pictures are encoded as AVIF, WebP and JPEG at three widths: slow beside other jobs

  it('opens a market with offers on the book and a year of trades, items found in real lootboxes', async () => {
    const [book] = await sqlRows(
      t.ctx.db,
      sql<{
        asks: number;
        bids: number;
        trades: number;
        months: number;
        openings: number;
      }>`SELECT (SELECT count(*) FROM market_offers WHERE side = 'SELL')::int AS asks,
                 (SELECT count(*) FROM market_offers WHERE side = 'BUY')::int AS bids,
                 (SELECT count(*) FROM trades)::int AS trades,
                 (SELECT count(DISTINCT date_trunc('month', created_at)) FROM trades)::int AS months,
                 (SELECT count(*) FROM lootbox_openings)::int AS openings`,
    );
    expect(book!.asks).toBeGreaterThan(5);
    expect(book!.bids).toBeGreaterThan(2);
    expect(book!.trades).toBeGreaterThan(10);
    expect(book!.months).toBeGreaterThan(6);
    expect(book!.openings).toBe(5 * 6);
  });

  it('opens a living chat room: demo users’ messages, each written with what its sender owns and paid for', async () => {
    const room = (await t.client().get('/api/last-50-messages')).json<ChatMessage[]>();
    expect(room.length).toBeGreaterThanOrEqual(8);
    expect(new Set(room.map((m) => m.senderId)).size).toBeGreaterThanOrEqual(3);
    expect(room.every((m) => m.username.startsWith('demo_'))).toBe(true);
    // Oldest first, over the last hours, none in the future.
    const times = room.map((m) => Date.parse(m.time));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(times.at(-1)!).toBeLessThanOrEqual(Date.now());
    for (const m of room) {
      const writer = writerOf(await ownedItems(t.ctx.db, m.senderId));
      expect(checkText(m.message, writer), m.message).toEqual({ ok: true });
    }
    const [paid] = await sqlRows(
      t.ctx.db,
      sql<{ n: number }>`SELECT count(*)::int AS n FROM journal_entries WHERE kind = 'CHAT_MESSAGE'`,
    );
    expect(paid!.n).toBe(room.length);
    expect((await checkConservation(t.ctx.db)).ok).toBe(true);
  });

  it('does nothing once the database has users', async () => {
    expect(await seedDemoIfEmpty(t.ctx)).toBe(false);
    expect((await t.client().get('/api/pictures?limit=100')).json()).toHaveLength(30);
  });
});
