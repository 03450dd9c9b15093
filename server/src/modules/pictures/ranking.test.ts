import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trendingScore } from '../../../../common/trending';
import { checkConservation } from '../../ledger/conservation';
import { makeUser } from '../../test/factories';
import { startTestApp, type TestApp } from '../../test/harness';
import type { Picture } from '../../../../common/api/pictures';
import { fundPicture } from './pictures.commands';
import { refreshTrending } from './ranking.repository';
import { makePicture } from './test-helpers';

const START = Date.parse('2026-04-01T08:00:00Z');
let clock = START;
const at = (minutes: number) => new Date(START + minutes * 60_000);

let t: TestApp;
let payer: { id: number };
beforeAll(async () => {
  t = await startTestApp({ now: () => new Date(clock) });
  payer = await makeUser(t.ctx, { balance: 100_000_000 });
});
afterAll(() => t.close());

/** Every purchase made in this file, to rank by brute force. */
const history = new Map<number, { amount: number; paidOn: Date }[]>();

async function upload(amount: number, minute: number): Promise<number> {
  const id = await makePicture(t.ctx, payer.id, amount, at(minute));
  history.set(id, [{ amount, paidOn: at(minute) }]);
  return id;
}

async function pay(pictureId: number, amount: number, minute: number): Promise<void> {
  await t.ctx.transact((w) => fundPicture(w, at(minute), { userId: payer.id, pictureId, amount }));
  history.get(pictureId)!.push({ amount, paidOn: at(minute) });
}

async function trending(query = 'limit=100'): Promise<Picture[]> {
  const res = await t.client().get(`/api/pictures?sort=trending&${query}`);
  expect(res.statusCode).toBe(200);
  return res.json();
}

function bruteForce(now: number): number[] {
  return [...history]
    .map(([id, ps]) => ({ id, score: trendingScore(ps, null, now) }))
    .sort((a, b) => b.score - a.score || b.id - a.id)
    .map((r) => r.id);
}

describe('the trending wall', () => {
  it('ranks by 1000 × amount / (minutes since payment + 1), summed, as time passes', async () => {
    const whale = await upload(10_000, 0); //  at minute 60: 10M / 61 ≈ 163,934
    const fresh = await upload(200, 60); //               200K / 1  = 200,000
    const warm = await upload(1000, 55); //                1M / 6   ≈ 166,667
    clock = at(60).getTime();
    expect((await trending()).map((p) => p.id)).toEqual([fresh, warm, whale]);

    // Ten minutes on, with no refresh: whale 10M/71 ≈ 140,845, warm 1M/16 = 62,500, fresh 200K/11 ≈ 18,182.
    clock = at(70).getTime();
    expect((await trending()).map((p) => p.id)).toEqual([whale, warm, fresh]);
    await refreshTrending(t.ctx.db, new Date(clock));
    expect((await trending()).map((p) => p.id)).toEqual([whale, warm, fresh]);
  });

  it('serves the score the client recomputes, from the same formula', async () => {
    const [first] = await trending('limit=1');
    const exact = trendingScore(history.get(first!.id)!, null, clock);
    expect(first!.trendingScore).toBeCloseTo(exact, 6);
    expect(trendingScore(first!.purchases, first!.earlierPurchases, clock)).toBeCloseTo(exact, 6);
  });

  it('matches a brute-force ranking of every purchase, with or without a refresh, on every page', async () => {
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const ids: number[] = [];
    for (let i = 0; i < 40; i++)
      ids.push(await upload(100 + Math.floor(random() * 5000), 70 + Math.floor(random() * 60)));
    for (let i = 0; i < 80; i++) {
      await pay(
        ids[Math.floor(random() * ids.length)]!,
        100 + Math.floor(random() * 2000),
        130 + Math.floor(random() * 30),
      );
    }
    for (const minute of [160, 175, 240, 1000]) {
      clock = at(minute).getTime();
      if (minute === 240) await refreshTrending(t.ctx.db, new Date(clock));
      const expected = bruteForce(clock);
      expect((await trending('limit=100')).map((p) => p.id)).toEqual(expected);
      expect((await trending('offset=10&limit=7')).map((p) => p.id)).toEqual(expected.slice(10, 17));
    }
  });

  it('folds purchases beyond the newest 20 and keeps the score within a fraction of a percent', async () => {
    const busy = await upload(100, 1000);
    for (let i = 1; i <= 24; i++) await pay(busy, 50 * i, 1000 + i);
    clock = at(1030).getTime();
    const res = await t.client().get(`/api/pictures/${busy}`);
    const picture: Picture = res.json();
    expect(picture.purchases).toHaveLength(20);
    expect(picture.purchases.at(-1)).toEqual({ amount: 1200, paidOn: at(1024).toISOString() });
    expect(picture.earlierPurchases).toMatchObject({ count: 5, amount: 100 + 50 + 100 + 150 + 200 });
    expect(picture.purchaseCount).toBe(25);
    expect(picture.totalAmount).toBe(100 + (50 * 24 * 25) / 2);
    const exact = trendingScore(history.get(busy)!, null, clock);
    expect(Math.abs(picture.trendingScore - exact) / exact).toBeLessThan(0.005);
    expect((await checkConservation(t.ctx.db)).ok).toBe(true);
  });
});
