import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransactionRow, TransactionSummary } from '../../../../common/api/transactions';
import { TRANSACTION_TYPES } from '../../../../common/api/transactions';
import { sqlRows } from '../../db/connection';
import { availableBalance } from '../../ledger/ledger';
import { giveItems, makeUser, signIn } from '../../test/factories';
import { startTestApp, type TestApp, type TestClient } from '../../test/harness';
import { imageOf, jpegPart, makePicture, upload } from '../pictures/test-helpers';
import { csvCell } from './transactions.presenter';
import { statementSql, summarySql } from './transactions.repository';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

interface Someone {
  id: number;
  client: TestClient;
}

async function someone(balance: number, letters = false): Promise<Someone> {
  const user = await makeUser(t.ctx, { balance });
  if (letters) for (const l of ALPHABET) await giveItems(t.ctx, user.id, `COMMON_LETTER_${l}`, 1);
  return { id: user.id, client: await signIn(t, user.id) };
}

const ok = async <R extends { statusCode: number; body: string }>(res: Promise<R>, what: string): Promise<R> => {
  const r = await res;
  expect(r.statusCode, `${what}: ${r.body}`).toBe(200);
  return r;
};
const summaryOf = async (u: Someone) => (await u.client.get('/api/user-transactions')).json<TransactionSummary>();
const rowsOf = async (u: Someone, type: string, query = '') =>
  (await u.client.get(`/api/user-transactions/${type}?limit=200${query}`)).json<TransactionRow[]>();
const sum = (xs: { payAmount: number }[]) => xs.reduce((n, r) => n + r.payAmount, 0);

/** A user who did everything the product charges or pays for, and the other side of their trades. */
let doer: Someone;
let other: Someone;
let uploadedId: number;
const CHAT = 'hello world, a longer message';
const COMMENT = 'Nice picture';

beforeAll(async () => {
  doer = await someone(20_000, true);
  other = await someone(20_000, true);
  await giveItems(t.ctx, doer.id, 'UNCOMMON_EMOJI_FIRE', 1);
  await giveItems(t.ctx, doer.id, 'COMMON_LETTER_Q', 2);
  await giveItems(t.ctx, other.id, 'COMMON_LETTER_Z', 2);

  const up = await ok(upload(doer.client, 500, jpegPart(await imageOf(400, 300))), 'upload');
  uploadedId = Number(up.json<{ url: string }>().url.split('/').pop());
  const theirs = await makePicture(t.ctx, other.id, 100);
  await ok(
    doer.client.post('/api/payment/checkout-with-image-fund', { imageId: theirs, amount: 300, balance: 0 }),
    'fund',
  );
  await ok(doer.client.post('/api/purchase/key', { keyCount: 3, balance: 0 }), 'keys');
  await ok(doer.client.post('/api/purchase/lootbox', {}), 'lootbox');
  await ok(doer.client.post('/api/open/lootbox', {}), 'open');
  // The doer sells to a taker (the doer is the resting maker), buys as a taker, and leaves a bid resting (escrow).
  await ok(
    doer.client.post('/api/market/generic-sell-offer', { itemType: 'COMMON_LETTER_Q', quantity: 1, price: 120 }),
    'sell offer',
  );
  await ok(
    other.client.post('/api/market/buy', { itemType: 'COMMON_LETTER_Q', requestedPrice: 120, balance: 0 }),
    'their buy',
  );
  await ok(
    other.client.post('/api/market/generic-sell-offer', { itemType: 'COMMON_LETTER_Z', quantity: 1, price: 90 }),
    'their offer',
  );
  await ok(doer.client.post('/api/market/buy', { itemType: 'COMMON_LETTER_Z', requestedPrice: 90, balance: 0 }), 'buy');
  await ok(
    doer.client.post('/api/market/generic-buy-offer', {
      itemType: 'COMMON_LETTER_X',
      quantity: 2,
      price: 40,
      balance: 0,
    }),
    'bid',
  );
  // Replacing the bid with a smaller one gives half of its escrow back.
  await ok(
    doer.client.post('/api/market/generic-buy-offer', {
      itemType: 'COMMON_LETTER_X',
      quantity: 1,
      price: 40,
      balance: 0,
    }),
    'smaller bid',
  );
  await ok(doer.client.post('/api/user/graph-item', { balance: 0 }), 'graphs');
  const made = await ok(
    doer.client.post('/api/picture/comment', { pictureId: theirs, comment: COMMENT, balance: 0 }),
    'comment',
  );
  const commentId = made.json<{ id: number }>().id;
  const mine = await ok(
    other.client.post('/api/picture/comment', { pictureId: uploadedId, comment: 'Pin me', balance: 0 }),
    'their comment',
  );
  await ok(
    doer.client.post('/api/picture/comment/reaction', {
      commentId,
      reactionType: 'UNCOMMON_EMOJI_FIRE',
      price: 15,
      balance: 0,
    }),
    'reaction',
  );
  await ok(
    doer.client.post('/api/picture/comment/pin', { commentId: mine.json<{ id: number }>().id, balance: 0 }),
    'pin',
  );
  await ok(doer.client.post('/api/user/message', { message: CHAT, sendAmount: 10_000, balance: 0 }), 'chat');
});

describe('GET /api/user-transactions', () => {
  it('sums every type, says what the resting bid holds, and the sums add up to balance + held', async () => {
    const { held, ...summary } = await summaryOf(doer);
    expect(Object.keys(summary).sort()).toEqual([...TRANSACTION_TYPES].sort());
    const balance = await availableBalance(t.ctx.db, doer.id);
    expect(held).toBe(40);
    expect(Object.values(summary).reduce((a, b) => a + b, 0)).toBe(balance + held);
    expect(summary.TOP_UP).toBe(20_000);
    expect(summary.IMAGE).toBe(-800);
    expect(summary.KEY).toBe(-300);
    expect(summary.ITEM_SELL).toBeGreaterThan(0);
    expect(summary.ITEM_SELL).toBeLessThanOrEqual(120);
    // Fills only: the bid placed (-80) and halved (+40) is not a transaction; what it holds is `held`.
    expect(summary.ITEM_BUY).toBe(-90);
    for (const type of ['GRAPH', 'COMMENT', 'REACTION', 'PIN', 'CHAT_MESSAGE'] as const) {
      expect(summary[type], type).toBeLessThan(0);
    }
    expect(summary.CHARITY).toBe(0);
    expect(summary.REFUND).toBe(0);
  });

  it("each type's rows add up to its sum, newest first, with previews", async () => {
    const { held: _held, ...summary } = await summaryOf(doer);
    for (const type of TRANSACTION_TYPES) {
      const list = await rowsOf(doer, type);
      expect(sum(list), type).toBe(summary[type]);
      expect(list.map((r) => r.id)).toEqual([...list.map((r) => r.id)].sort((a, b) => b - a));
    }
    const images = await rowsOf(doer, 'IMAGE');
    expect(images.map((r) => r.payAmount)).toEqual([-300, -500]);
    expect(images[1]).toMatchObject({
      resourceId: String(uploadedId),
      resourcePreview: expect.stringMatching(/^\/images\/[0-9a-f]{64}\.(jpg|webp)$/),
    });
    expect(await rowsOf(doer, 'KEY')).toEqual([
      expect.objectContaining({ payAmount: -300, resourcePreview: '3 keys' }),
    ]);
    expect((await rowsOf(doer, 'ITEM_SELL'))[0]).toMatchObject({
      resourceId: 'COMMON_LETTER_Q',
      resourcePreview: 'COMMON_LETTER_Q',
    });
    expect((await rowsOf(doer, 'ITEM_BUY')).map((r) => [r.resourcePreview, r.payAmount])).toEqual([
      ['COMMON_LETTER_Z', -90],
    ]);
    expect((await rowsOf(doer, 'CHAT_MESSAGE'))[0]!.resourcePreview).toBe(CHAT);
    expect((await rowsOf(doer, 'COMMENT'))[0]).toMatchObject({ payAmount: -15, resourcePreview: COMMENT });
    expect((await rowsOf(doer, 'PIN'))[0]).toMatchObject({ payAmount: -1, resourcePreview: 'Pin me' });
    expect((await rowsOf(doer, 'REACTION'))[0]).toMatchObject({
      payAmount: -15,
      resourcePreview: 'UNCOMMON_EMOJI_FIRE',
    });
  });

  it("never shows another user's money: the taker of the doer's sale sees their own side of the same entry", async () => {
    const { held, ...theirs } = await summaryOf(other);
    expect(held).toBe(0);
    expect(Object.values(theirs).reduce((a, b) => a + b, 0)).toBe(await availableBalance(t.ctx.db, other.id));
    expect(theirs.ITEM_BUY).toBe(-120);
    const stranger = await someone(700);
    expect(await summaryOf(stranger)).toEqual({
      ...Object.fromEntries(TRANSACTION_TYPES.map((x) => [x, 0])),
      TOP_UP: 700,
      held: 0,
    });
    for (const type of TRANSACTION_TYPES) {
      expect(await rowsOf(stranger, type), type).toHaveLength(type === 'TOP_UP' ? 1 : 0);
    }
  });

  it('pages with a bounded limit and before', async () => {
    const all = await rowsOf(doer, 'IMAGE');
    const first = (await doer.client.get('/api/user-transactions/IMAGE?limit=1')).json<TransactionRow[]>();
    expect(first).toEqual([all[0]]);
    const next = (await doer.client.get(`/api/user-transactions/IMAGE?limit=1&before=${first[0]!.id}`)).json<
      TransactionRow[]
    >();
    expect(next).toEqual([all[1]]);
    for (const q of ['limit=0', 'limit=201', 'limit=-1', 'before=x']) {
      expect((await doer.client.get(`/api/user-transactions/IMAGE?${q}`)).statusCode, q).toBe(400);
    }
  });

  it('answers 400 on an unknown type and 401 when signed out', async () => {
    const bad = await doer.client.get('/api/user-transactions/LOOTBOX');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual([{ field: 'type', errorText: expect.any(String) }]);
    expect((await doer.client.get('/api/user-transactions/image')).statusCode).toBe(400);
    for (const path of ['/api/user-transactions', '/api/user-transactions/IMAGE', '/api/user-transactions.csv']) {
      expect((await t.client().get(path)).statusCode, path).toBe(401);
    }
  });
});

describe('GET /api/user-transactions.csv', () => {
  it('downloads every row with a header, in integer cents, adding up to balance + held', async () => {
    const res = await doer.client.get('/api/user-transactions.csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe('attachment; filename="transactions.csv"');
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('time,type,amount_cents,resource_id,preview');
    let total = 0;
    let count = 0;
    for (const type of TRANSACTION_TYPES) count += (await rowsOf(doer, type)).length;
    expect(lines).toHaveLength(count + 1);
    for (const line of lines.slice(1)) {
      const [time, type, amount] = line.split(',');
      expect(new Date(time!).toISOString()).toBe(time);
      expect(TRANSACTION_TYPES).toContain(type);
      expect(amount).toMatch(/^-?[0-9]+$/);
      total += Number(amount);
    }
    expect(total).toBe((await availableBalance(t.ctx.db, doer.id)) + (await summaryOf(doer)).held);
    // One call is one row: three keys are one KEY row of -300.
    expect(lines.filter((l) => l.split(',')[1] === 'KEY').map((l) => l.split(',')[2])).toEqual(['-300']);
    expect(res.body).toContain(`"${CHAT}"`);
  });

  it('quotes cells and defuses formulas', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell(-300)).toBe('-300');
    expect(csvCell(null)).toBe('');
  });
});

describe('query plans', () => {
  it("reads a user's postings through postings_account and entries by their key", async () => {
    for (const query of [
      summarySql(doer.id),
      statementSql(doer.id, { type: 'IMAGE', limit: 50 }),
      statementSql(doer.id, {}),
    ]) {
      const plan = await t.ctx.db.transaction(async (tx) => {
        await tx.execute(sql`SET LOCAL enable_seqscan = off`);
        return (await sqlRows(tx, sql<{ 'QUERY PLAN': string }>`EXPLAIN ${query}`))
          .map((r) => r['QUERY PLAN'])
          .join('\n');
      });
      expect(plan).toContain('postings_account');
      expect(plan).not.toMatch(/Seq Scan on (postings|journal_entries)/);
    }
  });
});
