import Stripe from 'stripe';
import type { Config } from '../../config';
import type { App, AppContext } from '../../context';
import type { Work } from '../../db/unit-of-work';
import { HttpError } from '../../http/errors';
import {
  findStripePayment,
  moveStatus,
  recordWebhookEvent,
  setProviderRef,
  webhookEventSeen,
  type Payment,
} from './payments.repository';
import { WebhookAnswer } from '../../../../common/api/payments';
import { Message } from '../../../../common/api/shared';
import { creditPayment, type CheckoutProvider } from './payments.service';
import { signedBy } from '../../http/authorization';

type StripeConfig = NonNullable<Config['stripe']>;

/** Stripe refuses card charges under 50 cents (USD), so the checkout refuses them first, as a field error. */
export const STRIPE_MIN_CENTS = 50;

/** The SDK client; `apiUrl` points it elsewhere than api.stripe.com (a local stub in tests). */
export function createStripeClient(cfg: StripeConfig): Stripe {
  if (!cfg.apiUrl) return new Stripe(cfg.secretKey, {});
  const url = new URL(cfg.apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(cfg.secretKey, {
    host: url.hostname,
    port: url.port || (protocol === 'http' ? 80 : 443),
    protocol,
  });
}

const unreachable = () =>
  new HttpError(502, { message: 'The card payment provider could not be reached. Please try again.' });

export function stripeProvider(stripe: Stripe): CheckoutProvider {
  return {
    name: 'stripe',
    minAmount: STRIPE_MIN_CENTS,
    async open(ctx, payment, origin) {
      let session: Stripe.Checkout.Session;
      try {
        session = await stripe.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: [
              {
                quantity: 1,
                price_data: { currency: 'usd', unit_amount: payment.amount, product_data: { name: 'Balance top-up' } },
              },
            ],
            success_url: `${origin}/close-the-window?status=success`,
            cancel_url: `${origin}/close-the-window?status=cancel`,
            client_reference_id: payment.id,
            metadata: { paymentId: payment.id, userId: String(payment.userId) },
          },
          // A retry of this create (the SDK retries network errors) returns the same session, never a second one.
          { idempotencyKey: `checkout-${payment.id}` },
        );
        if (!session.url) throw new Error(`session ${session.id} came back without a url`);
      } catch (err) {
        ctx.log.error({ err, paymentId: payment.id }, 'stripe: creating the checkout session failed');
        // Not open any more: nothing but a verified "paid" event from Stripe can credit it now.
        await moveStatus(ctx.db, payment.id, ['open'], 'failed', ctx.now());
        throw unreachable();
      }
      await setProviderRef(ctx.db, payment.id, session.id);
      return session.url;
    },
  };
}

/**
 * The webhook Stripe calls. It sits in a scope of its own whose JSON parser keeps the raw bytes, because the
 * signature covers the body exactly as sent.
 */
export async function stripeWebhookRoutes(app: App, ctx: AppContext, stripe: Stripe, cfg: StripeConfig) {
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    scope.post(
      '/api/payment/stripe/webhook',
      {
        config: { skipOriginCheck: true, auth: signedBy('stripe') },
        schema: {
          summary: "Stripe's signed webhook: checkout sessions paid or expired",
          operationId: 'receiveStripeEvent',
          tags: ['payments'],
          response: { 200: WebhookAnswer, 400: Message },
        },
      },
      async (req, reply) => {
        const raw = req.body;
        const signature = req.headers['stripe-signature'];
        let event: Stripe.Event;
        try {
          if (!(Buffer.isBuffer(raw) || typeof raw === 'string') || typeof signature !== 'string') throw new Error();
          event = stripe.webhooks.constructEvent(raw, signature, cfg.webhookSecret);
        } catch {
          return reply.code(400).send({ message: 'The Stripe signature is missing, invalid or too old.' });
        }
        await handleStripeEvent(ctx, event);
        return { received: true as const };
      },
    );
  });
}

/** The events this server acts on; Stripe may send any other, and it is ignored. */
const HANDLED = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.expired',
] as const;
type HandledEvent = Extract<Stripe.Event, { type: (typeof HANDLED)[number] }>;
const isHandled = (event: Stripe.Event): event is HandledEvent => (HANDLED as readonly string[]).includes(event.type);

/** Applies one verified event; any number of deliveries, in any order, credit a session at most once. */
export async function handleStripeEvent(ctx: AppContext, event: Stripe.Event): Promise<void> {
  if (!isHandled(event)) return;
  if (await webhookEventSeen(ctx.db, event.id)) return;
  await ctx.transact(async (work) => {
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded':
        await onSessionPaid(work, ctx, event.data.object);
        break;
      case 'checkout.session.expired':
        await onSessionExpired(work, ctx, event.data.object);
        break;
    }
    await recordWebhookEvent(work.tx, event.id, event.type);
  });
}

async function paymentOf(work: Work, session: Stripe.Checkout.Session): Promise<Payment | undefined> {
  const hint = session.metadata?.paymentId ?? session.client_reference_id ?? undefined;
  return findStripePayment(work.tx, session.id, hint);
}

async function onSessionPaid(work: Work, ctx: AppContext, session: Stripe.Checkout.Session): Promise<void> {
  // 'unpaid' comes with delayed payment methods; checkout.session.async_payment_succeeded follows when paid.
  if (session.payment_status !== 'paid') return;
  const payment = await paymentOf(work, session);
  const log = ctx.log.child({ sessionId: session.id, paymentId: payment?.id });
  if (!payment) return log.warn('stripe: a paid session matches no payment of ours');
  const sameOwner = session.metadata?.userId === undefined || session.metadata.userId === String(payment.userId);
  const sameMoney = session.amount_total === payment.amount && (session.currency ?? 'usd').toLowerCase() === 'usd';
  if (!sameOwner || !sameMoney) {
    return log.error(
      { amountTotal: session.amount_total, currency: session.currency, expected: payment.amount },
      'stripe: paid session does not match its payment; nothing credited',
    );
  }
  // Stripe's word that the money arrived outranks our own view of the payment, except that it was already paid.
  const { credited } = await creditPayment(work, ctx, payment.id, ['open', 'failed', 'expired'], session.id);
  if (credited) log.info({ amount: payment.amount }, 'stripe: top-up credited');
}

async function onSessionExpired(work: Work, ctx: AppContext, session: Stripe.Checkout.Session): Promise<void> {
  const payment = await paymentOf(work, session);
  if (payment) await moveStatus(work.tx, payment.id, ['open'], 'expired', ctx.now());
}
