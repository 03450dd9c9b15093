import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe } from 'vitest';
import { sqlRows } from '../../db/connection';
import { makeUser, signIn } from '../../test/factories';
import { startTestApp, type TestApp } from '../../test/harness';
import { itRefusesStrangers } from '../../test/policy-table';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** Alice opens a demo payment; Bob, signed in, tries it. */
async function alicesPayment() {
  const alice = await signIn(t, (await makeUser(t.ctx)).id);
  const res = await alice.post('/api/payment/checkout', { amount: 500, url: '/' });
  const id = new URL(res.json<{ url: string }>().url).pathname.split('/').pop()!;
  const stranger = await signIn(t, (await makeUser(t.ctx)).id);
  const snapshot = async () => ({
    payment: await sqlRows(t.ctx.db, sql`SELECT status, entry_id FROM payments WHERE id = ${id}`),
    entries: await sqlRows(t.ctx.db, sql`SELECT count(*)::int AS n FROM journal_entries`),
  });
  return { ids: { id }, stranger, snapshot };
}

describe("payments policy: another user's payment", () => {
  itRefusesStrangers(() => t, alicesPayment, [
    {
      route: 'GET /api/payment/{id}',
      request: ({ id }) => ({ method: 'GET', url: `/api/payment/${id}` }),
      status: 403,
    },
    {
      route: 'POST /api/payment/demo/{id}/pay',
      request: ({ id }) => ({ method: 'POST', url: `/api/payment/demo/${id}/pay`, payload: {} }),
      status: 403,
    },
    {
      route: 'POST /api/payment/demo/{id}/cancel',
      request: ({ id }) => ({ method: 'POST', url: `/api/payment/demo/${id}/cancel`, payload: {} }),
      status: 403,
    },
    {
      route: 'GET /demo-checkout/{id}',
      request: ({ id }) => ({ method: 'GET', url: `/demo-checkout/${id}` }),
      status: 404,
    },
  ]);
});
