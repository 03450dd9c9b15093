import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Comment } from '../../../../common/api/comments';
import { sqlRows } from '../../db/connection';
import { checkConservation } from '../../ledger/conservation';
import { availableBalance } from '../../ledger/ledger';
import { missingRealServices, realPostgresUrl } from '../../test/databases';
import { giveItems, makeUser, signIn } from '../../test/factories';
import { PATIENT_DATABASE, startTestApp, type TestApp } from '../../test/harness';
import { makePicture } from '../pictures/test-helpers';

/* Comments under real concurrency, on PostgreSQL with its pool: the balance guard decides who pays. */
describe.skipIf(missingRealServices({ postgres: true }))('comments under concurrent calls (PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ postgresUrl: realPostgresUrl, config: PATIENT_DATABASE });
  });
  afterAll(() => t.close());

  const count = async (q: SQL) => (await sqlRows(t.ctx.db, sql<{ n: number }>`${q}`))[0]!.n;

  it('20 parallel comments from a user with the balance for 10: exactly 10 are written and charged', async () => {
    const author = await makeUser(t.ctx, { balance: 100 });
    const pictureId = await makePicture(t.ctx, author.id, 100);
    const writer = await makeUser(t.ctx, { balance: 150 });
    for (const l of 'ABCDE') await giveItems(t.ctx, writer.id, `COMMON_LETTER_${l}`, 1);
    const client = await signIn(t, writer.id);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        client.post('/api/picture/comment', { pictureId, comment: `abc ${'e'.repeat(i + 1)}`, balance: 150 }),
      ),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(10);
    expect(codes.filter((c) => c !== 200).every((c) => c === 402)).toBe(true);
    expect(await availableBalance(t.ctx.db, writer.id)).toBe(0);
    expect(await count(sql`SELECT count(*)::int AS n FROM comments WHERE picture_id = ${pictureId}`)).toBe(10);
    expect(await count(sql`SELECT comment_count AS n FROM pictures WHERE id = ${pictureId}`)).toBe(10);
    expect(await checkConservation(t.ctx.db)).toMatchObject({ ok: true });
  });

  it('10 parallel pins of one comment by its picture author: one pin, one cent', async () => {
    const author = await makeUser(t.ctx, { balance: 200 });
    const pictureId = await makePicture(t.ctx, author.id, 100);
    const client = await signIn(t, author.id);
    const made = (
      await client.post('/api/picture/comment', { pictureId, comment: 'Pin me', balance: 0 })
    ).json<Comment>();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => client.post('/api/picture/comment/pin', { commentId: made.id, balance: 0 })),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c !== 200).every((c) => c === 400)).toBe(true);
    expect(await availableBalance(t.ctx.db, author.id)).toBe(200 - 100 - 15 - 1);
    expect(await checkConservation(t.ctx.db)).toMatchObject({ ok: true });
  });

  it('the same Idempotency-Key sent 10 times at once: one comment, charged once, the same answer', async () => {
    const author = await makeUser(t.ctx, { balance: 100 });
    const pictureId = await makePicture(t.ctx, author.id, 100);
    const writer = await makeUser(t.ctx, { balance: 100 });
    await giveItems(t.ctx, writer.id, 'COMMON_LETTER_A', 1);
    const client = await signIn(t, writer.id);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        client.post('/api/picture/comment', { pictureId, comment: 'aaa', balance: 100 }, { 'idempotency-key': 'same' }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(await availableBalance(t.ctx.db, writer.id)).toBe(85);
    expect(await checkConservation(t.ctx.db)).toMatchObject({ ok: true });
  });
});
