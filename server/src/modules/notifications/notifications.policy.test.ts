import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe } from 'vitest';
import type { Notification } from '../../../../common/api/notifications';
import { sqlRows } from '../../db/connection';
import { giveItems, makeUser, signIn } from '../../test/factories';
import { startTestApp, type TestApp } from '../../test/harness';
import { itRefusesStrangers } from '../../test/policy-table';
import { makePicture } from '../pictures/test-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** Carol commented on Alice's picture; Bob, who is neither, tries to read Alice's notification. */
async function aliceNotified() {
  const alice = await makeUser(t.ctx, { balance: 1_000 });
  const carol = await makeUser(t.ctx, { balance: 1_000 });
  for (const l of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') await giveItems(t.ctx, carol.id, `COMMON_LETTER_${l}`, 1);
  const pictureId = await makePicture(t.ctx, alice.id, 100);
  await (await signIn(t, carol.id)).post('/api/picture/comment', { pictureId, comment: 'HELLO', balance: 0 });
  const [n] = (await (await signIn(t, alice.id)).get('/api/user-notifications')).json<Notification[]>();
  const bob = await makeUser(t.ctx, { balance: 500 });
  const stranger = await signIn(t, bob.id);
  const snapshot = () => sqlRows(t.ctx.db, sql`SELECT id, seen, fold FROM notification_events ORDER BY id`);
  return { ids: { id: n!.id }, stranger, snapshot };
}

describe('notifications policy: a user reads only their own', () => {
  itRefusesStrangers(() => t, aliceNotified, [
    {
      route: 'POST /api/user-notifications/read',
      request: ({ id }: { id: number }) => ({
        method: 'POST',
        url: '/api/user-notifications/read',
        payload: { id, unreadIds: String(id) },
      }),
      status: 404,
    },
  ]);
});
