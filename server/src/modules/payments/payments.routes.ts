import type { App, AppContext } from '../../context';
import { forbidden } from '../../http/errors';
import { isCashTenant, publicOrigin } from '../../http/tenant';
import { requireUser } from '../../http/auth';
import { demoCheckoutRoutes, demoProvider } from './demo-checkout';
import { CheckoutAnswer, CheckoutBody, PaymentAnswer, PaymentParams } from '../../../../common/api/payments';
import { FieldErrors, Message } from '../../../../common/api/shared';
import { presentPayment } from './payments.presenter';
import { ownPayment, parseAmount, parseReturnUrl, startCheckout } from './payments.service';
import { createStripeClient, stripeProvider, stripeWebhookRoutes } from './stripe';
import { paymentsPolicy } from './payments.policy';

/** The line the log shows at start while the demo provider takes the payments. */
export const DEMO_WARNING =
  'payments: the built-in DEMO provider is active: any signed-in user can add balance for free. For real card ' +
  'payments set PAYMENTS=stripe with STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET.';

/**
 * Card top-up (docs/product.md#top-up): Stripe Checkout when configured, else the built-in demo provider. Money
 * arrives only through creditTopUp, once per payment, when the provider says it was paid.
 */
export async function paymentRoutes(app: App, ctx: AppContext): Promise<void> {
  const stripe = ctx.config.stripe ? createStripeClient(ctx.config.stripe) : undefined;
  const provider = stripe ? stripeProvider(stripe) : demoProvider;
  if (!stripe) {
    const why = ctx.config.payments === 'demo' ? 'PAYMENTS=demo' : 'the Stripe keys are not both set';
    ctx.log.warn(`${DEMO_WARNING} (${why})`);
  }

  app.post(
    '/api/payment/checkout',
    {
      config: { auth: 'member' },
      schema: {
        summary: "Start a card top-up: answers the payment page's address",
        operationId: 'startCheckout',
        tags: ['payments'],
        body: CheckoutBody,
        response: { 200: CheckoutAnswer, 400: FieldErrors, 401: Message, 403: Message, 502: Message },
      },
    },
    async (req) => {
      const user = requireUser(req);
      if (!isCashTenant(req, ctx)) {
        throw forbidden('Card top-up is not available on this site. Add money with a charity donation link instead.');
      }
      const amount = parseAmount(req.body.amount, provider.minAmount);
      const returnUrl = parseReturnUrl(req.body.url, req.host, ctx.config.publicUrl);
      const url = await startCheckout(ctx, provider, {
        userId: user.id,
        amount,
        returnUrl,
        origin: publicOrigin(req, ctx),
      });
      return { url };
    },
  );

  app.get(
    '/api/payment/:id',
    {
      config: { auth: paymentsPolicy.rule('read') },
      schema: {
        summary: "One of the signed-in user's payments, and how it ended",
        operationId: 'getPayment',
        tags: ['payments'],
        params: PaymentParams,
        response: { 200: PaymentAnswer, 401: Message, 403: Message, 404: Message },
      },
    },
    async (req) => presentPayment(await ownPayment(ctx, requireUser(req), req.params.id)),
  );

  if (stripe) await stripeWebhookRoutes(app, ctx, stripe, ctx.config.stripe!);
  else await demoCheckoutRoutes(app, ctx);
}
