import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe } from 'vitest';
import type { DonationLink } from '../../../../common/api/charity';
import { sqlRows } from '../../db/connection';
import { makeUser, signIn } from '../../test/factories';
import { startTestApp, type TestApp } from '../../test/harness';
import { itRefusesStrangers } from '../../test/policy-table';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** Alice sent a donation link on a charity host; Bob, signed in but no administrator, tries to decide or list it. */
async function alicesLink() {
  const alice = await makeUser(t.ctx);
  const res = await (
    await signIn(t, alice.id)
  ).post(
    '/api/charity-link/send',
    { link: `give.example.org/alice/${alice.id}` },
    { host: 'green.example', origin: 'http://green.example' },
  );
  const link = res.json<DonationLink>();
  const bob = await makeUser(t.ctx, { balance: 500 });
  const stranger = await signIn(t, bob.id);
  const snapshot = () =>
    sqlRows(
      t.ctx.db,
      sql`SELECT (SELECT row_to_json(l) FROM charity_links l WHERE id = ${link.id}) AS link,
                 (SELECT balance FROM ledger_accounts WHERE code = ${`user:${alice.id}:available`}) AS alice,
                 (SELECT balance FROM ledger_accounts WHERE code = ${`user:${bob.id}:available`}) AS bob,
                 (SELECT count(*)::int FROM notification_events WHERE user_id = ${alice.id}) AS notes,
                 (SELECT count(*)::int FROM charity_options) AS options`,
    );
  return { ids: { linkId: link.id, aliceId: alice.id }, stranger, snapshot };
}

type Ids = { linkId: number; aliceId: number };

describe('charity policy: deciding and reading another user’s links belong to administrators', () => {
  itRefusesStrangers(() => t, alicesLink, [
    {
      route: 'POST /api/admin/charity/approve',
      request: ({ linkId }: Ids) => ({
        method: 'POST',
        url: '/api/admin/charity/approve',
        payload: {
          charityLinkId: linkId,
          amount: 100_000,
          charityName: 'Mine',
          adminCategory: 'Me',
          isPubliclyVisible: true,
        },
      }),
      status: 403,
    },
    {
      route: 'POST /api/admin/charity/reject',
      request: ({ linkId }: Ids) => ({
        method: 'POST',
        url: '/api/admin/charity/reject',
        payload: {
          charityLinkId: linkId,
          reason: 'Spite',
          charityName: 'X',
          adminCategory: 'Y',
          isPubliclyVisible: true,
        },
      }),
      status: 403,
    },
    {
      route: 'GET /api/admin/user-donations/{userId}',
      request: ({ aliceId }: Ids) => ({ method: 'GET', url: `/api/admin/user-donations/${aliceId}` }),
      status: 403,
    },
  ]);
});
