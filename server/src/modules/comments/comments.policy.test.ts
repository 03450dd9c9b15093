import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe } from 'vitest';
import type { Comment } from '../../../../common/api/comments';
import { sqlRows } from '../../db/connection';
import { makeUser, signIn } from '../../test/factories';
import { startTestApp, type TestApp } from '../../test/harness';
import { itRefusesStrangers } from '../../test/policy-table';
import { makePicture } from '../pictures/test-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** Alice's picture carries Carol's comment; Bob, who is neither, tries to pin it. */
async function aliceCommentedPicture() {
  const alice = await makeUser(t.ctx, { balance: 1_000 });
  const pictureId = await makePicture(t.ctx, alice.id, 100);
  const comment = (
    await (await signIn(t, alice.id)).post('/api/picture/comment', { pictureId, comment: 'Mine!', balance: 0 })
  ).json<Comment>();
  const bob = await makeUser(t.ctx, { balance: 500 });
  const stranger = await signIn(t, bob.id);
  const snapshot = () =>
    sqlRows(
      t.ctx.db,
      sql`SELECT (SELECT pinned_at FROM comments WHERE id = ${comment.id}) AS pinned,
                 (SELECT balance FROM ledger_accounts WHERE code = ${`user:${bob.id}:available`}) AS balance`,
    );
  return { ids: { commentId: comment.id }, stranger, snapshot };
}

describe('comments policy: pinning belongs to the picture author', () => {
  itRefusesStrangers(() => t, aliceCommentedPicture, [
    {
      route: 'POST /api/picture/comment/pin',
      request: ({ commentId }: { commentId: number }) => ({
        method: 'POST',
        url: '/api/picture/comment/pin',
        payload: { commentId, balance: 500 },
      }),
      status: 403,
    },
  ]);
});
