import type { App, AppContext } from '../../context';
import { sendPaid } from '../../http/idempotency';
import { requireUser } from '../../http/auth';
import { DEMO_CHECKOUT_JS, renderCheckoutPage, renderMissingPage } from './demo-checkout.page';
import { authorizeDemoSettlement, mayViewDemoCheckout } from './payments.policy';
import { DemoSettlement, PaymentParams, SettledAnswer } from '../../../../common/api/payments';
import { Message } from '../../../../common/api/shared';
import { paymentById, settleDemo, type CheckoutProvider } from './payments.service';

/** The built-in provider used when Stripe is not configured: its hosted checkout is a page of this server. */
export const demoProvider: CheckoutProvider = {
  name: 'demo',
  minAmount: 1,
  async open(_ctx, payment, origin) {
    return `${origin}/demo-checkout/${payment.id}`;
  },
};

export async function demoCheckoutRoutes(app: App, ctx: AppContext): Promise<void> {
  // The demo provider's own page and its script: a payment provider's site, not part of the API.
  app.get('/demo-checkout/checkout.js', { schema: { hide: true } }, async (_req, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(DEMO_CHECKOUT_JS),
  );

  app.get('/demo-checkout/:id', { schema: { hide: true, params: PaymentParams } }, async (req, reply) => {
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    if (!req.user) return reply.code(401).send(renderMissingPage(false));
    const payment = await paymentById(ctx, req.params.id);
    if (!mayViewDemoCheckout(req.user, payment)) return reply.code(404).send(renderMissingPage(true));
    return reply.send(renderCheckoutPage(payment));
  });

  for (const action of ['pay', 'cancel'] as const) {
    app.post(
      `/api/payment/demo/:id/${action}`,
      {
        schema: {
          summary: action === 'pay' ? 'Pay a demo checkout: credits its amount once' : 'Cancel a demo checkout',
          operationId: `${action}DemoPayment`,
          tags: ['payments'],
          params: PaymentParams,
          response: { 200: DemoSettlement, 401: Message, 403: Message, 404: Message, 409: SettledAnswer },
        },
      },
      async (req, reply) => {
        const user = requireUser(req);
        const payment = authorizeDemoSettlement(user, await paymentById(ctx, req.params.id));
        return sendPaid(ctx, req, reply, user.id, (work) => settleDemo(work, ctx, payment.id, action));
      },
    );
  }
}
