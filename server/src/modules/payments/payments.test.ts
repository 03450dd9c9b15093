import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TOPUP_CENTS } from '../../../../common/constants';
import { sqlRows, type Columns } from '../../db/connection';
import type { payments } from './payments.tables';
import { checkConservation } from '../../ledger/conservation';
import { availableBalance } from '../../ledger/ledger';
import { makeUser, signIn } from '../../test/factories';
import { startTestApp, type TestApp, type TestClient } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function signedInUser(): Promise<{ id: number; client: TestClient }> {
  const user = await makeUser(t.ctx);
  return { id: user.id, client: await signIn(t, user.id) };
}

/** Starts a demo checkout and answers the new payment's id. */
async function openPayment(client: TestClient, amount = 500): Promise<string> {
  const res = await client.post('/api/payment/checkout', { amount, url: '/profile' });
  expect(res.statusCode).toBe(200);
  return new URL(res.json<{ url: string }>().url).pathname.split('/').pop()!;
}

const topUpEntries = async (paymentId: string) =>
  (
    await sqlRows(
      t.ctx.db,
      sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM journal_entries WHERE kind = 'TOPUP' AND resource_id = ${paymentId}`,
    )
  )[0]!.n;

const booksBalance = async () => expect((await checkConservation(t.ctx.db)).ok).toBe(true);

describe('POST /api/payment/checkout on a cash tenant', () => {
  it('answers the demo checkout page of a new open payment', async () => {
    const { client } = await signedInUser();
    const res = await client.post('/api/payment/checkout', { amount: 500, url: '/image/7?index=2' });
    expect(res.statusCode).toBe(200);
    const { url } = res.json<{ url: string }>();
    expect(url).toMatch(/^http:\/\/localhost:3000\/demo-checkout\/[0-9a-f-]{36}$/);

    const id = url.split('/').pop()!;
    const payment = await client.get(`/api/payment/${id}`);
    expect(payment.json()).toEqual({ id, amount: 500, status: 'open' });
    const [stored] = await sqlRows(
      t.ctx.db,
      sql<Columns<typeof payments, 'return_url'>>`SELECT return_url FROM payments WHERE id = ${id}`,
    );
    expect(stored!.return_url).toBe('/image/7?index=2');
  });

  it('keeps an absolute return url of this site as its path, and accepts the largest amount', async () => {
    const { client } = await signedInUser();
    const res = await client.post('/api/payment/checkout', {
      amount: MAX_TOPUP_CENTS,
      url: 'http://localhost:3000/week#top',
    });
    expect(res.statusCode).toBe(200);
    const id = res.json<{ url: string }>().url.split('/').pop()!;
    const [stored] = await sqlRows(
      t.ctx.db,
      sql<Columns<typeof payments, 'return_url'>>`SELECT return_url FROM payments WHERE id = ${id}`,
    );
    expect(stored!.return_url).toBe('/week#top');
  });

  it('refuses a signed-out caller with 401', async () => {
    const res = await t.client().post('/api/payment/checkout', { amount: 500, url: '/' });
    expect(res.statusCode).toBe(401);
  });

  it.each([
    ['zero', 0],
    ['a negative amount', -500],
    ['a fraction of a cent', 12.5],
    ['a string', '500'],
    ['more than the largest top-up', MAX_TOPUP_CENTS + 1],
    ['a huge number', 1e300],
    ['null', null],
  ])('refuses %s with a field error on amount', async (_name, amount) => {
    const { client } = await signedInUser();
    const res = await client.post('/api/payment/checkout', { amount, url: '/' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual([{ field: 'amount', errorText: expect.any(String) }]);
  });

  it('refuses a missing amount', async () => {
    const { client } = await signedInUser();
    const res = await client.post('/api/payment/checkout', { url: '/' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual([{ field: 'amount', errorText: expect.any(String) }]);
  });

  it('refuses a return url on another site', async () => {
    const { client } = await signedInUser();
    for (const url of ['https://evil.example/x', '//evil.example/x', 'javascript:alert(1)']) {
      const res = await client.post('/api/payment/checkout', { amount: 500, url });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual([{ field: 'url', errorText: expect.any(String) }]);
    }
  });

  it('refuses card top-up on a charity host with 403 and a clear message', async () => {
    const { id, client } = await signedInUser();
    const res = await client.post(
      '/api/payment/checkout',
      { amount: 500, url: '/' },
      { host: 'green.example', origin: 'http://green.example' },
    );
    expect(res.statusCode).toBe(403);
    expect(res.json<{ message: string }>().message).toMatch(/not available on this site/);
    const open = await sqlRows(
      t.ctx.db,
      sql<{ n: number }>`SELECT count(*)::int AS n FROM payments WHERE user_id = ${id}`,
    );
    expect(open[0]!.n).toBe(0);
  });
});

describe('demo provider: Pay and Cancel', () => {
  it('credits the amount to the owner once Pay is pressed', async () => {
    const { id: userId, client } = await signedInUser();
    const paymentId = await openPayment(client, 750);
    const res = await client.post(`/api/payment/demo/${paymentId}/pay`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: paymentId, amount: 750, status: 'paid', balance: 750 });
    expect(await availableBalance(t.ctx.db, userId)).toBe(750);
    expect((await client.get(`/api/payment/${paymentId}`)).json()).toMatchObject({ status: 'paid' });
    await booksBalance();
  });

  it('credits exactly once when Pay is sent 10 times at once', async () => {
    const { id: userId, client } = await signedInUser();
    const paymentId = await openPayment(client, 500);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => client.post(`/api/payment/demo/${paymentId}/pay`)),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    expect(answers.every((a) => a.json<{ status: string }>().status === 'paid')).toBe(true);
    expect(await availableBalance(t.ctx.db, userId)).toBe(500);
    expect(await topUpEntries(paymentId)).toBe(1);
    await booksBalance();
  });

  it('answers a replayed Idempotency-Key with the first answer and credits nothing more', async () => {
    const { id: userId, client } = await signedInUser();
    const paymentId = await openPayment(client, 300);
    const key = { 'idempotency-key': `pay-${paymentId}` };
    const first = await client.post(`/api/payment/demo/${paymentId}/pay`, {}, key);
    const again = await client.post(`/api/payment/demo/${paymentId}/pay`, {}, key);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await availableBalance(t.ctx.db, userId)).toBe(300);
    await booksBalance();
  });

  it('credits nothing when Pay comes after Cancel (409 with the final status)', async () => {
    const { id: userId, client } = await signedInUser();
    const paymentId = await openPayment(client, 500);
    const cancel = await client.post(`/api/payment/demo/${paymentId}/cancel`);
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json()).toMatchObject({ status: 'cancelled' });
    expect((await client.post(`/api/payment/demo/${paymentId}/cancel`)).statusCode).toBe(200);

    const pay = await client.post(`/api/payment/demo/${paymentId}/pay`);
    expect(pay.statusCode).toBe(409);
    expect(pay.json()).toEqual({ message: 'This payment was cancelled.', status: 'cancelled' });
    expect(await availableBalance(t.ctx.db, userId)).toBe(0);
    expect(await topUpEntries(paymentId)).toBe(0);
    await booksBalance();
  });

  it('keeps a paid payment paid when Cancel comes after Pay', async () => {
    const { id: userId, client } = await signedInUser();
    const paymentId = await openPayment(client, 200);
    await client.post(`/api/payment/demo/${paymentId}/pay`);
    const cancel = await client.post(`/api/payment/demo/${paymentId}/cancel`);
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json()).toMatchObject({ status: 'paid' });
    expect(await availableBalance(t.ctx.db, userId)).toBe(200);
    await booksBalance();
  });

  it("refuses another user's payment with 403 and changes nothing", async () => {
    const owner = await signedInUser();
    const other = await signedInUser();
    const paymentId = await openPayment(owner.client, 500);
    for (const call of [
      other.client.post(`/api/payment/demo/${paymentId}/pay`),
      other.client.post(`/api/payment/demo/${paymentId}/cancel`),
      other.client.get(`/api/payment/${paymentId}`),
    ]) {
      expect((await call).statusCode).toBe(403);
    }
    expect(await availableBalance(t.ctx.db, other.id)).toBe(0);
    expect(await availableBalance(t.ctx.db, owner.id)).toBe(0);
    expect((await owner.client.get(`/api/payment/${paymentId}`)).json()).toMatchObject({ status: 'open' });
    await booksBalance();
  });

  it('answers 404 for an unknown payment id and 401 when signed out', async () => {
    const { client } = await signedInUser();
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await client.post(`/api/payment/demo/${unknown}/pay`)).statusCode).toBe(404);
    expect((await client.post(`/api/payment/demo/${unknown}/cancel`)).statusCode).toBe(404);
    expect((await client.get(`/api/payment/${unknown}`)).statusCode).toBe(404);

    const paymentId = await openPayment(client);
    expect((await t.client().post(`/api/payment/demo/${paymentId}/pay`)).statusCode).toBe(401);
    expect((await t.client().get(`/api/payment/${paymentId}`)).statusCode).toBe(401);
  });
});

describe('demo provider: the hosted checkout page', () => {
  it('shows the amount in dollars, Pay and Cancel, and says it is a demo, with no inline script', async () => {
    const { client } = await signedInUser();
    const paymentId = await openPayment(client, 123456);
    const page = await client.get(`/demo-checkout/${paymentId}`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('$1,234.56');
    expect(page.body).toContain('>Pay</button>');
    expect(page.body).toContain('>Cancel</button>');
    expect(page.body).toContain('Demo payment provider');
    expect(page.body).toContain('<script src="/demo-checkout/checkout.js" defer></script>');
    expect(page.body.match(/<script/g)).toHaveLength(1);
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self'/);
  });

  it('serves the page script from this site; it lands on /close-the-window', async () => {
    const res = await t.client().get('/demo-checkout/checkout.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.body).toContain('/close-the-window?status=');
  });

  it('shows a settled payment without buttons', async () => {
    const { client } = await signedInUser();
    const paymentId = await openPayment(client, 500);
    await client.post(`/api/payment/demo/${paymentId}/pay`);
    const page = await client.get(`/demo-checkout/${paymentId}`);
    expect(page.body).toContain('already paid');
    expect(page.body).not.toContain('<button');
    await booksBalance();
  });

  it("does not show another user's payment, nor any to a signed-out visitor", async () => {
    const owner = await signedInUser();
    const other = await signedInUser();
    const paymentId = await openPayment(owner.client, 500);
    const page = await other.client.get(`/demo-checkout/${paymentId}`);
    expect(page.statusCode).toBe(404);
    expect(page.body).not.toContain('$5.00');
    expect((await t.client().get(`/demo-checkout/${paymentId}`)).statusCode).toBe(401);
  });
});
