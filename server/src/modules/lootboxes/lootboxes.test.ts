import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ItemDetails } from '../../../../common/api/items';
import type { Opening } from '../../../../common/api/lootboxes';
import { drawOpening, seedHash } from '../../../../common/fairness';
import { ITEMS } from '../../../../common/items';
import type { LiveEvent } from '../../../../common/live';
import { checkConservation } from '../../ledger/conservation';
import { availableBalance } from '../../ledger/ledger';
import { makeUser, signIn } from '../../test/factories';
import { startTestApp, type TestApp, type TestClient } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function player(balance = 10_000): Promise<{ id: number; client: TestClient }> {
  const user = await makeUser(t.ctx, { balance });
  return { id: user.id, client: await signIn(t, user.id) };
}

const buyKeys = (client: TestClient, keyCount: unknown, headers?: Record<string, string>) =>
  client.post('/api/purchase/key', { keyCount, balance: 0 }, headers);
const getBox = (client: TestClient) => client.post('/api/purchase/lootbox', {});
const open = (client: TestClient) => client.post('/api/open/lootbox', {});
const profile = async (client: TestClient) =>
  (await client.get('/api/user/profile')).json<{ keyCount: number; lootBoxCount: number; balance: number }>();
const owned = async (client: TestClient) =>
  Object.fromEntries(
    (await client.get('/api/items/details')).json<ItemDetails[]>().map((i) => [i.itemType, i.user.quantity]),
  );
const booksBalance = async () => expect(await checkConservation(t.ctx.db)).toMatchObject({ ok: true });

describe('POST /api/purchase/key', () => {
  it('sells 1 and 99 keys at 100 cents each, half to the cause, and answers the new count', async () => {
    const { id, client } = await player(10_000);
    const one = await buyKeys(client, 1);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual({ keyCount: 1, balance: 9_900 });
    const many = await buyKeys(client, 99);
    expect(many.json()).toEqual({ keyCount: 100, balance: 0 });
    expect(await availableBalance(t.ctx.db, id)).toBe(0);
    expect(await profile(client)).toMatchObject({ keyCount: 100, balance: 0 });
    await booksBalance();
  });

  it('refuses 0, 100, 1.5, "3", nothing and text with 400 on keyCount, changing nothing', async () => {
    const { id, client } = await player(10_000);
    for (const bad of [0, 100, 1.5, '3', null, 'many', -1]) {
      const res = await buyKeys(client, bad);
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json()[0].field, String(bad)).toBe('keyCount');
    }
    expect((await client.post('/api/purchase/key', {})).statusCode).toBe(400);
    expect(await availableBalance(t.ctx.db, id)).toBe(10_000);
    expect((await profile(client)).keyCount).toBe(0);
  });

  it('answers 402 with what is missing when the balance is one cent short', async () => {
    const { id, client } = await player(299);
    const res = await buyKeys(client, 3);
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ missing: 1 });
    expect(await availableBalance(t.ctx.db, id)).toBe(299);
    expect((await profile(client)).keyCount).toBe(0);
  });

  it('charges a replay with the same Idempotency-Key once and answers it the same', async () => {
    const { id, client } = await player(1_000);
    const key = { 'idempotency-key': 'keys-once' };
    const first = await buyKeys(client, 2, key);
    const again = await buyKeys(client, 2, key);
    expect(again.json()).toEqual(first.json());
    expect(await availableBalance(t.ctx.db, id)).toBe(800);
    expect((await buyKeys(client, 3, key)).statusCode).toBe(400); // the same key for another request
    await booksBalance();
  });

  it('tells the buyer live how many keys they have', async () => {
    const { id, client } = await player(1_000);
    const seen: LiveEvent[] = [];
    const off = t.ctx.bus.subscribe((e) => e.ch === 'keyCount' && seen.push(e));
    await buyKeys(client, 4);
    off();
    expect(seen).toEqual([{ ch: 'keyCount', t: 'update', m: { value: 4 }, userId: id }]);
  });

  it('answers 401 to a visitor', async () => {
    expect((await buyKeys(t.client(), 1)).statusCode).toBe(401);
  });
});

describe('boxes', () => {
  it('gives up to 10 free boxes and refuses the 11th on lootBoxCount', async () => {
    const { id, client } = await player(0);
    for (let n = 1; n <= 10; n++) expect((await getBox(client)).json()).toEqual({ lootBoxCount: n });
    const eleventh = await getBox(client);
    expect(eleventh.statusCode).toBe(400);
    expect(eleventh.json()[0].field).toBe('lootBoxCount');
    expect((await profile(client)).lootBoxCount).toBe(10);
    expect(await availableBalance(t.ctx.db, id)).toBe(0);
  });

  it('refuses to open without a box (lootBoxCount) or without a key (keyCount), changing nothing', async () => {
    const { client } = await player(1_000);
    await buyKeys(client, 1);
    const noBox = await open(client);
    expect(noBox.statusCode).toBe(400);
    expect(noBox.json()[0].field).toBe('lootBoxCount');
    const { client: other } = await player(0);
    await getBox(other);
    const noKey = await open(other);
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json()[0].field).toBe('keyCount');
    expect(await profile(client)).toMatchObject({ keyCount: 1, lootBoxCount: 0 });
    expect(await profile(other)).toMatchObject({ keyCount: 0, lootBoxCount: 1 });
  });

  it('opens a box with a key: exactly its 5 items are added, one key and one box are gone', async () => {
    const { client } = await player(1_000);
    await buyKeys(client, 1);
    await getBox(client);
    const before = await owned(client);
    const res = await open(client);
    expect(res.statusCode).toBe(200);
    const loot = res.json<{ lootSequence: string[]; openSequence: string; lootFound: boolean }>();
    expect(loot.lootSequence).toHaveLength(5);
    expect(loot.openSequence).toMatch(/^[LR]{5}$/);
    expect(res.json()).toMatchObject({ nonce: 0, keyCount: 0, lootBoxCount: 0, openingId: expect.any(Number) });
    const after = await owned(client);
    const added = Object.fromEntries(ITEMS.map((i) => [i.itemType, after[i.itemType]! - before[i.itemType]!]));
    const expected: Record<string, number> = {};
    for (const code of loot.lootSequence) expected[code] = (expected[code] ?? 0) + 1;
    expect(Object.fromEntries(Object.entries(added).filter(([, n]) => n !== 0))).toEqual(expected);
    expect(await profile(client)).toMatchObject({ keyCount: 0, lootBoxCount: 0 });
    const report = await checkConservation(t.ctx.db);
    expect(report).toMatchObject({ ok: true });
    expect(report.itemsInExistence).toBe(report.itemsMinted);
  });

  it('lets exactly 5 of 20 parallel openings through 5 boxes and 20 keys', async () => {
    const { client } = await player(2_000);
    await buyKeys(client, 20);
    for (let i = 0; i < 5; i++) await getBox(client);
    const results = await Promise.all(Array.from({ length: 20 }, () => open(client)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(5);
    expect(results.filter((r) => r.statusCode === 400)).toHaveLength(15);
    expect(await profile(client)).toMatchObject({ keyCount: 15, lootBoxCount: 0 });
    const total = Object.values(await owned(client)).reduce((a, b) => a + b, 0);
    expect(total).toBe(25);
    await booksBalance();
  });

  it('tells the opener live how many keys and boxes are left', async () => {
    const { id, client } = await player(1_000);
    await buyKeys(client, 2);
    await getBox(client);
    const seen: LiveEvent[] = [];
    const off = t.ctx.bus.subscribe((e) => (e.ch === 'keyCount' || e.ch === 'lootBoxCount') && seen.push(e));
    expect((await open(client)).statusCode).toBe(200);
    expect((await open(client)).statusCode).toBe(400); // refused: nothing said
    off();
    expect(seen).toEqual([
      { ch: 'keyCount', t: 'update', m: { value: 1 }, userId: id },
      { ch: 'lootBoxCount', t: 'update', m: { value: 0 }, userId: id },
    ]);
  });

  it('opens once under an Idempotency-Key and replays the first answer, a refusal too', async () => {
    const { client } = await player(1_000);
    await buyKeys(client, 2);
    await getBox(client);
    const key = { 'idempotency-key': 'open-once' };
    const first = await client.post('/api/open/lootbox', {}, key);
    expect(first.statusCode).toBe(200);
    const again = await client.post('/api/open/lootbox', {}, key);
    expect(again.json()).toEqual(first.json());
    expect(await profile(client)).toMatchObject({ keyCount: 1, lootBoxCount: 0 });
    const refused = await client.post('/api/open/lootbox', {}, { 'idempotency-key': 'open-no-box' });
    expect(refused.statusCode).toBe(400);
    await getBox(client);
    const replayed = await client.post('/api/open/lootbox', {}, { 'idempotency-key': 'open-no-box' });
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json()).toEqual(refused.json());
    expect(await profile(client)).toMatchObject({ keyCount: 1, lootBoxCount: 1 });
    await booksBalance();
  });

  it('skipping the reveal changes nothing', async () => {
    const { id, client } = await player(500);
    const before = await owned(client);
    expect((await client.post('/api/open/lootbox/skip', {})).statusCode).toBe(200);
    expect(await owned(client)).toEqual(before);
    expect(await availableBalance(t.ctx.db, id)).toBe(500);
  });
});

describe('provable fairness', () => {
  async function openSome(client: TestClient, n: number) {
    await buyKeys(client, n);
    for (let i = 0; i < n; i++) {
      await getBox(client);
      expect((await open(client)).statusCode).toBe(200);
    }
  }

  it('shows the seed hash before any opening, and every opening recomputes once the seed is revealed', async () => {
    const { client } = await player(10_000);
    const committed = (await client.get('/api/lootbox/fairness')).json();
    expect(committed).toEqual({
      serverSeedHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      clientSeed: expect.any(String),
      nonce: 0,
    });
    await openSome(client, 3);
    expect((await client.get('/api/lootbox/fairness')).json().nonce).toBe(3);

    const hidden = (await client.get('/api/lootbox/openings')).json<Opening[]>();
    expect(hidden.map((o) => o.nonce)).toEqual([2, 1, 0]);
    expect(hidden.every((o) => o.serverSeed === null && o.serverSeedHash === committed.serverSeedHash)).toBe(true);

    const rotation = (await client.post('/api/lootbox/fairness/rotate', {})).json();
    expect(rotation).toMatchObject({
      previousServerSeedHash: committed.serverSeedHash,
      clientSeed: committed.clientSeed,
      nonce: 0,
    });
    expect(await seedHash(rotation.previousServerSeed)).toBe(committed.serverSeedHash);
    expect(rotation.serverSeedHash).not.toBe(committed.serverSeedHash);

    const revealed = (await client.get('/api/lootbox/openings')).json<Opening[]>();
    for (const o of revealed) {
      expect(o.serverSeed).toBe(rotation.previousServerSeed);
      const again = await drawOpening({
        serverSeed: o.serverSeed!,
        clientSeed: o.clientSeed,
        nonce: o.nonce,
        weights: o.weights,
        oddsVersion: o.oddsVersion,
      });
      expect(again).toEqual({ lootSequence: o.lootSequence, openSequence: o.openSequence, lootFound: o.lootFound });
    }
    await booksBalance();
  });

  it("uses the user's own client seed, keeping the nonce; a different seed draws differently", async () => {
    const { client } = await player(10_000);
    await openSome(client, 1);
    const set = await client.request({
      method: 'PUT',
      url: '/api/lootbox/fairness',
      payload: { clientSeed: 'my-lucky-seed!' },
    });
    expect(set.json()).toMatchObject({ clientSeed: 'my-lucky-seed!', nonce: 1 });
    await openSome(client, 1);
    await client.post('/api/lootbox/fairness/rotate', {});
    const [latest] = (await client.get('/api/lootbox/openings?limit=1')).json<Opening[]>();
    expect(latest).toMatchObject({ nonce: 1, clientSeed: 'my-lucky-seed!' });
    const withOther = await drawOpening({ ...latest!, serverSeed: latest!.serverSeed!, clientSeed: 'another seed' });
    expect(withOther.lootSequence.join() + withOther.openSequence).not.toBe(
      latest!.lootSequence.join() + latest!.openSequence,
    );
  });

  it('refuses a client seed that is empty, too long or has spaces, on clientSeed', async () => {
    const { client } = await player(0);
    for (const bad of ['', 'x'.repeat(65), 'two words', 'é']) {
      const res = await client.request({ method: 'PUT', url: '/api/lootbox/fairness', payload: { clientSeed: bad } });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()[0].field).toBe('clientSeed');
    }
  });

  it('pages the openings newest first with limit and before', async () => {
    const { client } = await player(10_000);
    await openSome(client, 3);
    const first = (await client.get('/api/lootbox/openings?limit=2')).json<Opening[]>();
    expect(first.map((o) => o.nonce)).toEqual([2, 1]);
    const rest = (await client.get(`/api/lootbox/openings?limit=2&before=${first[1]!.id}`)).json<Opening[]>();
    expect(rest.map((o) => o.nonce)).toEqual([0]);
    expect((await client.get('/api/lootbox/openings?limit=101')).statusCode).toBe(400);
    expect((await t.client().get('/api/lootbox/openings')).statusCode).toBe(401);
  });
});

describe('GET /api/lootbox/odds', () => {
  it('publishes the weights and the items of every tier to anyone', async () => {
    const res = await t.client().get('/api/lootbox/odds');
    expect(res.statusCode).toBe(200);
    const odds = res.json();
    expect(odds).toMatchObject({ oddsVersion: 1, total: 100_000_000, elusiveOnSale: 0 });
    expect(odds.tiers.map((x: { rarity: string; weight: number }) => [x.rarity, x.weight])).toEqual([
      ['LETTER', 80_000_000],
      ['UNCOMMON', 15_000_000],
      ['RARE', 4_200_000],
      ['EPIC', 700_000],
      ['ELUSIVE', 100_000],
    ]);
    expect(odds.tiers[0].items).toHaveLength(26);
  });
});

describe('GET /api/items/details', () => {
  it('lists every item with the market and what the caller owns; visitors get 401', async () => {
    const { client } = await player(0);
    const list = (await client.get('/api/items/details')).json<ItemDetails[]>();
    expect(list).toHaveLength(ITEMS.length);
    expect(list[0]).toEqual({
      itemType: 'COMMON_LETTER_A',
      emoji: 'A',
      name: 'Letter A',
      rarity: 1,
      market: { quantity: 0, bestSo: null, bestBo: null },
      user: { quantity: 0, sellOffer: null, buyOffer: null },
    });
    expect((await t.client().get('/api/items/details')).statusCode).toBe(401);
  });
});

describe('the books', () => {
  it('balance, money and items, after everything above', async () => {
    const report = await checkConservation(t.ctx.db);
    expect(report).toMatchObject({ ok: true, postingsTotal: 0, unbalancedItemEntries: 0, driftedInventories: 0 });
    expect(report.itemsMinted).toBeGreaterThan(0);
    expect(report.itemsInExistence).toBe(report.itemsMinted);
  });
});
