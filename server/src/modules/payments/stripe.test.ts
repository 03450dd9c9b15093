import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sqlRows, type Columns } from '../../db/connection';
import type { payments } from './payments.tables';
import { checkConservation } from '../../ledger/conservation';
import { availableBalance } from '../../ledger/ledger';
import { makeUser, signIn } from '../../test/factories';
import { startTestApp, type TestApp, type TestClient } from '../../test/harness';

const WEBHOOK_SECRET = 'whsec_test';

/** Stands in for api.stripe.com: creates Checkout Sessions and records what the SDK sent. */
interface StripeStub {
  port: number;
  requests: { method: string; path: string; form: URLSearchParams; headers: http.IncomingHttpHeaders }[];
  /** 'drop' closes every connection unanswered, as an unreachable Stripe would. */
  mode: 'ok' | 'drop';
  close(): Promise<void>;
}

async function startStripeStub(): Promise<StripeStub> {
  let seq = 0;
  const stub: StripeStub = { port: 0, requests: [], mode: 'ok', close: async () => undefined };
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (chunk) => (data += chunk));
    req.on('end', () => {
      if (stub.mode === 'drop') return req.socket.destroy();
      const form = new URLSearchParams(data);
      stub.requests.push({ method: req.method!, path: req.url!, form, headers: req.headers });
      if (req.method !== 'POST' || req.url !== '/v1/checkout/sessions') {
        res.writeHead(404, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'no such route' } }));
      }
      const id = `cs_test_${++seq}_${Date.now()}`;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id,
          object: 'checkout.session',
          url: `https://checkout.stripe.test/c/pay/${id}`,
          mode: 'payment',
          status: 'open',
          payment_status: 'unpaid',
          currency: 'usd',
          amount_total: Number(form.get('line_items[0][price_data][unit_amount]')),
          client_reference_id: form.get('client_reference_id'),
          metadata: { paymentId: form.get('metadata[paymentId]'), userId: form.get('metadata[userId]') },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub.port = (server.address() as AddressInfo).port;
  stub.close = () => new Promise((resolve) => server.close(() => resolve()));
  return stub;
}

let stub: StripeStub;
let t: TestApp;
const signer = new Stripe('sk_test_x');

beforeAll(async () => {
  stub = await startStripeStub();
  t = await startTestApp({
    config: {
      publicUrl: 'https://wall.example',
      stripe: { secretKey: 'sk_test_x', webhookSecret: WEBHOOK_SECRET, apiUrl: `http://127.0.0.1:${stub.port}` },
    },
  });
});
afterAll(async () => {
  await t.close();
  await stub.close();
});
beforeEach(() => {
  stub.mode = 'ok';
  stub.requests.length = 0;
});

interface Checkout {
  userId: number;
  client: TestClient;
  paymentId: string;
  sessionId: string;
  amount: number;
}

async function checkout(amount = 2500): Promise<Checkout> {
  const user = await makeUser(t.ctx);
  const client = await signIn(t, user.id);
  const res = await client.post('/api/payment/checkout', { amount, url: '/' });
  expect(res.statusCode).toBe(200);
  const sessionId = res.json<{ url: string }>().url.split('/').pop()!;
  const [row] = await sqlRows(
    t.ctx.db,
    sql<Columns<typeof payments, 'id'>>`SELECT id FROM payments WHERE provider_ref = ${sessionId}`,
  );
  return { userId: user.id, client, paymentId: row!.id, sessionId, amount };
}

/** A Checkout Session event as Stripe would send it for `c`, with its own event id unless given one. */
function sessionEvent(
  type: string,
  c: Checkout,
  session: Record<string, unknown> = {},
  eventId = `evt_${Math.random().toString(36).slice(2)}`,
): string {
  return JSON.stringify({
    id: eventId,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: c.sessionId,
        object: 'checkout.session',
        amount_total: c.amount,
        currency: 'usd',
        payment_status: type === 'checkout.session.completed' ? 'paid' : 'unpaid',
        status: type === 'checkout.session.expired' ? 'expired' : 'complete',
        client_reference_id: c.paymentId,
        metadata: { paymentId: c.paymentId, userId: String(c.userId) },
        ...session,
      },
    },
  });
}

function deliver(
  payload: string,
  opts: { signedPayload?: string; timestamp?: number; signature?: string | null } = {},
) {
  const signature =
    opts.signature === undefined
      ? signer.webhooks.generateTestHeaderString({
          payload: opts.signedPayload ?? payload,
          secret: WEBHOOK_SECRET,
          timestamp: opts.timestamp,
        })
      : opts.signature;
  return t.app.inject({
    method: 'POST',
    url: '/api/payment/stripe/webhook',
    payload,
    // Stripe's own content type, parameters and all.
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(signature === null ? {} : { 'stripe-signature': signature }),
    },
  });
}

const statusOf = async (paymentId: string) =>
  (
    await sqlRows(
      t.ctx.db,
      sql<Columns<typeof payments, 'status'>>`SELECT status FROM payments WHERE id = ${paymentId}`,
    )
  )[0]!.status;

const booksBalance = async () => expect((await checkConservation(t.ctx.db)).ok).toBe(true);

describe('Stripe checkout', () => {
  it('creates a Checkout Session for the amount, returning to /close-the-window', async () => {
    const c = await checkout(1234);
    const [sent] = stub.requests;
    expect(sent!.path).toBe('/v1/checkout/sessions');
    expect(sent!.headers.authorization).toBe('Bearer sk_test_x');
    expect(Object.fromEntries(sent!.form)).toMatchObject({
      mode: 'payment',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '1234',
      'line_items[0][price_data][product_data][name]': 'Balance top-up',
      success_url: 'https://wall.example/close-the-window?status=success',
      cancel_url: 'https://wall.example/close-the-window?status=cancel',
      client_reference_id: c.paymentId,
      'metadata[paymentId]': c.paymentId,
      'metadata[userId]': String(c.userId),
    });
    expect(await statusOf(c.paymentId)).toBe('open');
    expect((await c.client.get(`/api/payment/${c.paymentId}`)).json()).toEqual({
      id: c.paymentId,
      amount: 1234,
      status: 'open',
    });
  });

  it('refuses a card top-up under 50 cents, which Stripe would refuse', async () => {
    const client = await signIn(t, (await makeUser(t.ctx)).id);
    const res = await client.post('/api/payment/checkout', { amount: 49, url: '/' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual([{ field: 'amount', errorText: 'The smallest top-up is $0.50.' }]);
    expect(stub.requests).toHaveLength(0);
  });

  it('answers 502 when Stripe cannot be reached and leaves no open payment behind', async () => {
    stub.mode = 'drop';
    const user = await makeUser(t.ctx);
    const client = await signIn(t, user.id);
    const res = await client.post('/api/payment/checkout', { amount: 500, url: '/' });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ message: 'The card payment provider could not be reached. Please try again.' });
    const left = await sqlRows(
      t.ctx.db,
      sql<Columns<typeof payments, 'status'>>`SELECT status FROM payments WHERE user_id = ${user.id}`,
    );
    expect(left).toEqual([{ status: 'failed' }]);
  });

  it('has no demo Pay button while Stripe is configured', async () => {
    const c = await checkout();
    expect((await c.client.post(`/api/payment/demo/${c.paymentId}/pay`)).statusCode).toBe(404);
    expect(await availableBalance(t.ctx.db, c.userId)).toBe(0);
  });
});

describe('Stripe webhook', () => {
  it('credits a completed session once, however many times the same event arrives at once', async () => {
    const c = await checkout(2500);
    const payload = sessionEvent('checkout.session.completed', c);
    const answers = await Promise.all(Array.from({ length: 10 }, () => deliver(payload)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    expect(answers[0]!.json()).toEqual({ received: true });
    expect(await availableBalance(t.ctx.db, c.userId)).toBe(2500);
    expect(await statusOf(c.paymentId)).toBe('paid');
    expect((await deliver(payload)).statusCode).toBe(200);
    expect(await availableBalance(t.ctx.db, c.userId)).toBe(2500);
    await booksBalance();
  });

  it('credits once whatever the order: completed twice under new event ids, then expired', async () => {
    const c = await checkout(900);
    for (const type of ['checkout.session.completed', 'checkout.session.completed', 'checkout.session.expired']) {
      expect((await deliver(sessionEvent(type, c))).statusCode).toBe(200);
    }
    expect(await availableBalance(t.ctx.db, c.userId)).toBe(900);
    expect(await statusOf(c.paymentId)).toBe('paid');
    await booksBalance();
  });

  it('marks an unpaid session expired and credits nothing', async () => {
    const c = await checkout(700);
    expect((await deliver(sessionEvent('checkout.session.expired', c))).statusCode).toBe(200);
    expect(await statusOf(c.paymentId)).toBe('expired');
    expect(await availableBalance(t.ctx.db, c.userId)).toBe(0);
    await booksBalance();
  });

  it('credits nothing for a completed session that is not paid yet', async () => {
    const c = await checkout(700);
    await deliver(sessionEvent('checkout.session.completed', c, { payment_status: 'unpaid' }));
    expect(await statusOf(c.paymentId)).toBe('open');
    expect(await availableBalance(t.ctx.db, c.userId)).toBe(0);
  });

  it('refuses a tampered payload with 400 and credits nothing', async () => {
    const c = await checkout(500);
    const genuine = sessionEvent('checkout.session.completed', c, {}, 'evt_tamper');
    const tampered = genuine.replace('"amount_total":500', '"amount_total":500000');
    expect(tampered).not.toBe(genuine);
    const res = await deliver(tampered, { signedPayload: genuine });
    expect(res.statusCode).toBe(400);
    expect(await availableBalance(t.ctx.db, c.userId)).toBe(0);
    expect(await statusOf(c.paymentId)).toBe('open');
  });

  it('refuses a stale signature (older than 5 minutes), a wrong secret and a missing one', async () => {
    const c = await checkout(500);
    const payload = sessionEvent('checkout.session.completed', c);
    const stale = await deliver(payload, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    expect(stale.statusCode).toBe(400);
    const wrongSecret = signer.webhooks.generateTestHeaderString({ payload, secret: 'whsec_other' });
    expect((await deliver(payload, { signature: wrongSecret })).statusCode).toBe(400);
    expect((await deliver(payload, { signature: null })).statusCode).toBe(400);
    expect(await availableBalance(t.ctx.db, c.userId)).toBe(0);
    expect(await statusOf(c.paymentId)).toBe('open');
  });

  it('credits nothing when the paid amount differs from the payment', async () => {
    const c = await checkout(5000);
    const res = await deliver(sessionEvent('checkout.session.completed', c, { amount_total: 4999 }));
    expect(res.statusCode).toBe(200);
    expect(await availableBalance(t.ctx.db, c.userId)).toBe(0);
    expect(await statusOf(c.paymentId)).toBe('open');
    await booksBalance();
  });

  it('finds the payment by its metadata when the session id was never stored', async () => {
    const c = await checkout(600);
    await t.ctx.db.execute(sql`UPDATE payments SET provider_ref = NULL, status = 'failed' WHERE id = ${c.paymentId}`);
    await deliver(sessionEvent('checkout.session.completed', c));
    expect(await availableBalance(t.ctx.db, c.userId)).toBe(600);
    expect(await statusOf(c.paymentId)).toBe('paid');
    await booksBalance();
  });

  it('answers 200 to event types it does not handle', async () => {
    const payload = JSON.stringify({
      id: 'evt_other',
      object: 'event',
      type: 'customer.created',
      data: { object: {} },
    });
    const res = await deliver(payload);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true });
  });
});
