import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ODDS_VERSION,
  TIER_SIZES,
  bytesToHex,
  drawOpening,
  tierItems,
  tierWeights,
  webCryptoHmac,
  type HmacBlock,
  type Opening,
  type TierWeights,
} from '../../../../common/fairness';
import { ITEMS, TIERS } from '../../../../common/items';
import type { LiveEvent } from '../../../../common/live';
import { sqlRows } from '../../db/connection';
import { int, literal, oneCaller } from '../../db/one-call';
import type { WorkDeps } from '../../db/unit-of-work';
import { checkConservation } from '../../ledger/conservation';
import { marketOrder } from '../../ledger/market';
import { giveItems, makeUser } from '../../test/factories';
import { startTestApp, type TestApp } from '../../test/harness';
import { mulberry32 } from '../../test/random';
import { openLootboxInOneCall } from './lootboxes.commands';
import { ensureSeed } from './seeds';

/*
 * The database's draw (migration 0020: lootbox_draw, lootbox_weights, lootbox_tier_items, and lootbox_open that uses
 * them) against the rules it implements, common/fairness.ts: many random server seeds, client seeds, nonces and
 * weights, each drawn by the database and by drawOpening, must give the same opening. Then lootbox_open itself:
 * its openings recompute, its weights follow the elusive units on sale, two openings of the last box or key never
 * both succeed, and the books balance. Runs on the embedded database, or on PostgreSQL with DATABASE_URL.
 */

let t: TestApp;
let deps: WorkDeps;
const sent: LiveEvent[] = [];
beforeAll(async () => {
  t = await startTestApp();
  deps = { db: t.ctx.db, bus: { send: async (e) => void sent.push(e) } };
});
afterAll(() => t.close());

const weightsArray = (w: TierWeights) => `ARRAY[${TIERS.map((tier) => int(w[tier])).join(', ')}]::bigint[]`;

interface Case {
  serverSeed: string;
  clientSeed: string;
  nonce: number;
  weights: TierWeights;
}

/** The database's openings of many cases, in one statement. */
async function drawnByDatabase(cases: Case[]): Promise<Opening[]> {
  const values = cases.map(
    (c, i) => `(${i}, ${literal(c.serverSeed)}, ${literal(c.clientSeed)}, ${int(c.nonce)}, ${weightsArray(c.weights)})`,
  );
  const rows = await sqlRows(
    t.ctx.db,
    sql<{ r: Opening }>`${sql.raw(
      `SELECT jsonb_build_object('lootSequence', to_jsonb(d.loot_sequence), 'openSequence', d.open_sequence,
                                 'lootFound', d.loot_found) AS r
        FROM (VALUES ${values.join(', ')}) AS v(i, s, c, n, w), lootbox_draw(s, c, n, w, ${ODDS_VERSION}) AS d
        ORDER BY i`,
    )}`,
  );
  return rows.map((r) => r.r);
}

describe('the database draws as common/fairness.ts says', () => {
  it("knows each tier's items at every odds version, and no other version", async () => {
    for (const version of Object.keys(TIER_SIZES).map(Number)) {
      for (const [i, tier] of TIERS.entries()) {
        const [row] = await sqlRows(
          t.ctx.db,
          sql<{ items: string[] }>`SELECT lootbox_tier_items(${version}::int, ${i}::int) AS items`,
        );
        expect(row!.items, `${tier} at version ${version}`).toEqual(tierItems(version, tier));
      }
    }
    const next = Math.max(...Object.keys(TIER_SIZES).map(Number)) + 1;
    const [unknown] = await sqlRows(
      t.ctx.db,
      sql<{ items: string[] | null }>`SELECT lootbox_tier_items(${next}::int, 0) AS items`,
    );
    expect(unknown!.items).toBeNull();
  });

  it('weighs the tiers as tierWeights does, elusive edge cases included', async () => {
    const units = [-5, 0, 1, 2, 3, 9, 99, 999, 49_999, 99_999, 100_000, 100_001, 1_000_000, 2 ** 31, 2 ** 40];
    const rows = await sqlRows(
      t.ctx.db,
      sql<{ w: (number | string)[] }>`${sql.raw(
        `SELECT lootbox_weights(q) AS w FROM unnest(ARRAY[${units.join(', ')}]::bigint[]) WITH ORDINALITY AS u(q, i)
          ORDER BY i`,
      )}`,
    );
    expect(rows.map((r) => r.w.map(Number))).toEqual(units.map((q) => TIERS.map((tier) => tierWeights(q)[tier])));
  });

  it('draws every random case exactly as drawOpening does', async () => {
    const seed = Number(process.env.LOOTBOX_DRAW_SEED ?? Date.now() % 1_000_000);
    console.log(`lootbox draw seed ${seed} (rerun with LOOTBOX_DRAW_SEED=${seed})`);
    const random = mulberry32(seed);
    const below = (n: number) => Math.floor(random() * n);
    const bytes = (n: number) => Uint8Array.from({ length: n }, () => below(256));
    const printable = () => String.fromCharCode(0x21 + below(0x7e - 0x21 + 1));
    const oneTier = (tier: number, total: number) =>
      Object.fromEntries(TIERS.map((x, i) => [x, i === tier ? total : 0])) as TierWeights;
    const anyWeights = (): TierWeights => {
      const roll = random();
      // As the server weighs them: an elusive count from none to past the point where the elusive weight is 0.
      if (roll < 0.35) return tierWeights([0, 1, 2, 99_999, 100_000, 100_001, below(1_000), below(200_000)][below(8)]!);
      // Totals that reject about half of all ints (2^31 + 1) or a quarter (3 × 2^30 + 1): rounds 2, 3, … are used.
      if (roll < 0.55) {
        const total = random() < 0.5 ? 2 ** 31 + 1 : 3 * 2 ** 30 + 1;
        const cuts = [below(total), below(total), below(total), below(total)].sort((a, b) => a - b);
        const parts = [cuts[0]!, cuts[1]! - cuts[0]!, cuts[2]! - cuts[1]!, cuts[3]! - cuts[2]!, total - cuts[3]!];
        return Object.fromEntries(TIERS.map((x, i) => [x, parts[i]!])) as TierWeights;
      }
      // The whole range (no int rejected), a single weight of 1, a single tier.
      if (roll < 0.65) return oneTier(below(5), [2 ** 32, 1, 100_000_000][below(3)]!);
      // Random weights, some tiers 0.
      return Object.fromEntries(
        TIERS.map((x, i) => [x, i === 0 || random() < 0.7 ? below(50_000_000) + 1 : 0]),
      ) as TierWeights;
    };

    const cases: Case[] = [];
    for (let n = 0; n < 500; n++) {
      // Server seeds are 32 bytes; a few other lengths test the HMAC itself (a key past 64 bytes is hashed first).
      const keyLength = random() < 0.9 ? 32 : [1, 31, 63, 64, 65, 100][below(6)]!;
      const clientSeed = random() < 0.2 ? "it's:a\\seed" : Array.from({ length: 1 + below(64) }, printable).join('');
      const nonce = [0, 1, 2 ** 31 - 1, below(1_000), below(2 ** 31)][below(5)]!;
      cases.push({ serverSeed: bytesToHex(bytes(keyLength)), clientSeed, nonce, weights: anyWeights() });
    }
    const got = await drawnByDatabase(cases);
    let rounds3 = 0;
    let elusive = 0;
    for (const [i, c] of cases.entries()) {
      const hmac = await webCryptoHmac(c.serverSeed);
      let blocks = 0;
      const counting: HmacBlock = (message) => {
        blocks++;
        return hmac(message);
      };
      const want = await drawOpening({ ...c, oddsVersion: ODDS_VERSION }, counting);
      expect(got[i], JSON.stringify(c)).toEqual(want);
      if (blocks > 2) rounds3++;
      if (want.lootSequence.some((code) => code.startsWith('ELUSIVE_'))) elusive++;
    }
    console.log(`lootbox draw: ${cases.length} cases, ${rounds3} needed a third block, ${elusive} found elusive items`);
    // The paths that matter were taken: rejections past the first two blocks, and draws of every tier.
    expect(rounds3).toBeGreaterThan(0);
    expect(elusive).toBeGreaterThan(0);
  });

  it('mints in the order the ledger locks inventories in (C order is the catalogue codes’ localeCompare order)', () => {
    const codes = ITEMS.map((i) => i.itemType);
    expect([...codes].sort()).toEqual([...codes].sort((a, b) => a.localeCompare(b)));
  });
});

describe('lootbox_open', () => {
  async function withBoxes(boxes: number, keys: number): Promise<number> {
    const { id } = await makeUser(t.ctx);
    await t.ctx.db.execute(sql`UPDATE users SET loot_box_count = ${boxes}, key_count = ${keys} WHERE id = ${id}`);
    return id;
  }

  const openingOf = async (openingId: number) =>
    (
      await sqlRows<{ weights: TierWeights; seed: string; clientSeed: string; nonce: number }>(
        t.ctx.db,
        sql`SELECT o.weights, s.server_seed AS seed, o.client_seed AS "clientSeed", o.nonce
            FROM lootbox_openings o JOIN fair_seeds s ON s.id = o.seed_id WHERE o.id = ${openingId}`,
      )
    )[0]!;

  it('opens with the weights of the elusive units on sale, and the opening recomputes', async () => {
    const seller = await makeUser(t.ctx, { balance: 0 });
    await giveItems(t.ctx, seller.id, 'ELUSIVE_EMOJI_COMET', 3);
    const offer = await t.ctx.transact((work) =>
      marketOrder(work, {
        kind: 'offer',
        itemType: 'ELUSIVE_EMOJI_COMET',
        side: 'SELL',
        takerId: seller.id,
        price: 500,
        quantity: 3,
        counterpartyId: null,
        feeBps: 0,
        at: new Date(),
        pushTtlSeconds: 60,
      }),
    );
    expect(offer).toMatchObject({ rest: 3 });
    const userId = await withBoxes(3, 3);
    for (let n = 0; n < 3; n++) {
      const opened = await openLootboxInOneCall(oneCaller(deps), userId, new Date());
      expect(opened.nonce).toBe(n);
      const row = await openingOf(opened.openingId);
      expect(row.weights).toEqual(tierWeights(3));
      const again = await drawOpening({ ...row, serverSeed: row.seed, oddsVersion: ODDS_VERSION });
      expect({
        lootSequence: opened.lootSequence,
        openSequence: opened.openSequence,
        lootFound: opened.lootFound,
      }).toEqual(again);
    }
    expect(await checkConservation(t.ctx.db)).toMatchObject({ ok: true });
  });

  it('raises the counters live only after a committed opening', async () => {
    const userId = await withBoxes(1, 1);
    sent.length = 0;
    await openLootboxInOneCall(oneCaller(deps), userId, new Date());
    expect(sent).toEqual([
      { ch: 'keyCount', t: 'update', m: { value: 0 }, userId },
      { ch: 'lootBoxCount', t: 'update', m: { value: 0 }, userId },
    ]);
    sent.length = 0;
    await expect(openLootboxInOneCall(oneCaller(deps), userId, new Date())).rejects.toMatchObject({ statusCode: 400 });
    expect(sent).toEqual([]);
  });

  it('never lets two openings of the last box or the last key both through, seed made or not', async () => {
    for (const [boxes, keys, refusedOn] of [
      [1, 5, 'lootBoxCount'],
      [5, 1, 'keyCount'],
      [1, 1, 'lootBoxCount'],
    ] as const) {
      for (const seeded of [false, true]) {
        const userId = await withBoxes(boxes, keys);
        // Unseeded, the openings race to make the user's first seed too (one is kept: seeds.ts).
        if (seeded) await ensureSeed(t.ctx.db, userId);
        const last = Math.min(boxes, keys);
        const results = await Promise.allSettled(
          Array.from({ length: last + 3 }, () => openLootboxInOneCall(oneCaller(deps), userId, new Date())),
        );
        const opened = results.filter((r) => r.status === 'fulfilled');
        const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
        expect(opened, `${boxes} boxes, ${keys} keys, seeded ${seeded}`).toHaveLength(last);
        for (const r of refused) expect(r.reason).toMatchObject({ statusCode: 400 });
        const fields = refused.map((r) => (r.reason as { body: { field: string }[] }).body[0]!.field);
        expect(new Set(fields)).toEqual(new Set([refusedOn]));
        const nonces = opened.map((r) => (r as PromiseFulfilledResult<{ nonce: number }>).value.nonce).sort();
        expect(new Set(nonces).size).toBe(last);
      }
    }
    expect(await checkConservation(t.ctx.db)).toMatchObject({ ok: true });
  });

  it('refuses without writing: no box, no key, no user', async () => {
    const before = await checkConservation(t.ctx.db);
    const noKey = await withBoxes(1, 0);
    const noBox = await withBoxes(0, 1);
    await expect(openLootboxInOneCall(oneCaller(deps), noKey, new Date())).rejects.toMatchObject({
      body: [{ field: 'keyCount' }],
    });
    await expect(openLootboxInOneCall(oneCaller(deps), noBox, new Date())).rejects.toMatchObject({
      body: [{ field: 'lootBoxCount' }],
    });
    await expect(openLootboxInOneCall(oneCaller(deps), 987_654_321, new Date())).rejects.toMatchObject({
      body: [{ field: 'lootBoxCount' }],
    });
    const [seeds] = await sqlRows<{ n: number }>(
      t.ctx.db,
      sql`SELECT count(*)::int AS n FROM fair_seeds WHERE user_id IN (${noKey}, ${noBox})`,
    );
    expect(seeds!.n).toBe(0);
    expect(await checkConservation(t.ctx.db)).toMatchObject({ ok: true, itemsMinted: before.itemsMinted });
  });
});
