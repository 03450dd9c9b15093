import type { App, AppContext } from '../../context';
import { notFound } from '../../http/errors';
import { idempotent } from '../../http/idempotency';
import { requireUser } from '../auth/session';
import { DEMO_CHECKOUT_JS, renderCheckoutPage, renderMissingPage } from './demo-checkout.page';
import { findPayment } from './payments.repository';
import { PaymentAnswer, PaymentParams, Message, SettledAnswer } from './payments.schemas';
import { ownPayment, settleDemo, workDeps, type CheckoutProvider } from './payments.service';

/** The built-in provider used when Stripe is not configured: its hosted checkout is a page of this server. */
export const demoProvider: CheckoutProvider = {
  name: 'demo',
  minAmount: 1,
  async open(_ctx, payment, origin) {
    return `${origin}/demo-checkout/${payment.id}`;
  },
};

export async function demoCheckoutRoutes(app: App, ctx: AppContext): Promise<void> {
  app.get('/demo-checkout/checkout.js', async (_req, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(DEMO_CHECKOUT_JS),
  );

  app.get('/demo-checkout/:id', { schema: { params: PaymentParams } }, async (req, reply) => {
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    if (!req.user) return reply.code(401).send(renderMissingPage(false));
    const payment = await findPayment(ctx.db, req.params.id);
    if (!payment || payment.provider !== 'demo' || payment.userId !== req.user.id) {
      return reply.code(404).send(renderMissingPage(true));
    }
    return reply.send(renderCheckoutPage(payment));
  });

  for (const action of ['pay', 'cancel'] as const) {
    app.post(
      `/api/payment/demo/:id/${action}`,
      {
        schema: {
          params: PaymentParams,
          response: { 200: PaymentAnswer, 401: Message, 403: Message, 404: Message, 409: SettledAnswer },
        },
      },
      async (req, reply) => {
        const user = requireUser(req);
        const payment = await ownPayment(ctx, user.id, req.params.id);
        // A card payment is settled by its provider alone: the demo buttons must never credit it.
        if (payment.provider !== 'demo') throw notFound('No such payment.');
        const answer = await idempotent(workDeps(ctx), req, user.id, async (work) => ({
          statusCode: 200,
          body: await settleDemo(work, ctx, payment.id, action),
        }));
        // Only 200 answers are ever produced (and so stored): every refusal is thrown.
        return reply.code(answer.statusCode as 200).send(answer.body);
      },
    );
  }
}
