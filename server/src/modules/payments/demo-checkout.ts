import type { App, AppContext } from '../../context';
import { sendPaid } from '../../http/idempotency';
import { requireUser } from '../../http/auth';
import { DEMO_CHECKOUT_JS, renderCheckoutPage, renderMissingPage } from './demo-checkout.page';
import { paymentsPolicy } from './payments.policy';
import { DemoSettlement, PaymentParams, SettledAnswer } from '../../../../common/api/payments';
import { Message } from '../../../../common/api/shared';
import { presentPayment } from './payments.presenter';
import { ownPayment, paymentById, settleDemo, type CheckoutProvider } from './payments.service';

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
  app.get('/demo-checkout/checkout.js', { schema: { hide: true }, config: { auth: 'public' } }, async (_req, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(DEMO_CHECKOUT_JS),
  );

  // A visitor gets the page's own 401 (not the API's JSON), so the edge lets everyone through.
  const viewRule = paymentsPolicy.rule('viewDemoCheckout');
  app.get(
    '/demo-checkout/:id',
    { schema: { hide: true, params: PaymentParams }, config: { auth: viewRule } },
    async (req, reply) => {
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
      if (!req.user) return reply.code(401).send(renderMissingPage(false));
      const payment = await paymentById(ctx, req.params.id);
      if (!payment || !paymentsPolicy.can(req.user, 'viewDemoCheckout', payment))
        return reply.code(404).send(renderMissingPage(true));
      return reply.send(renderCheckoutPage(payment));
    },
  );

  for (const action of ['pay', 'cancel'] as const) {
    app.post(
      `/api/payment/demo/:id/${action}`,
      {
        config: { auth: paymentsPolicy.rule('settleDemo') },
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
        const payment = await ownPayment(ctx, user, req.params.id);
        paymentsPolicy.authorize(user, 'settleDemo', payment);
        return sendPaid(ctx, req, reply, user.id, async (work) =>
          presentPayment(await settleDemo(work, ctx, payment.id, action)),
        );
      },
    );
  }
}
