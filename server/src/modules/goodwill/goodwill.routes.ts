import {
  GoodWillBody,
  GoodWillCsv,
  GoodWillPayments,
  GoodWillPaymentsQuery,
  GoodWillTotals,
  GoodWillValue,
} from '../../../../common/api/goodwill';
import { GOODWILL_CSV_NAME } from '../../../../common/goodwill';
import { FieldErrors, Message } from '../../../../common/api/shared';
import type { App, AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { batchesCsv, presentShare, presentTotals } from './goodwill.presenter';
import { causeOf, chooseCause, forwardedBatches, goodwillTotals, paymentsOf } from './goodwill.service';

/** Goodwill (docs/product.md#goodwill): the caller's cause and shares, and the public proof of the forwarding. */
export async function goodwillRoutes(app: App, ctx: AppContext): Promise<void> {
  app.get(
    '/api/user/good-will',
    {
      config: { auth: 'user' },
      schema: {
        summary: "The cause the signed-in user's goodwill goes to",
        operationId: 'getGoodwillCause',
        tags: ['goodwill'],
        response: { 200: GoodWillValue, 401: Message },
      },
    },
    async (req) => ({ value: await causeOf(ctx.db, requireUser(req).id) }),
  );

  app.post(
    '/api/user/good-will',
    {
      config: { auth: 'user' },
      schema: {
        summary: "Choose the cause one's goodwill goes to",
        operationId: 'chooseGoodwillCause',
        tags: ['goodwill'],
        body: GoodWillBody,
        response: { 200: GoodWillValue, 400: FieldErrors, 401: Message },
      },
    },
    async (req) => chooseCause(ctx, requireUser(req).id, req.body.goodWill),
  );

  app.get(
    '/api/user/good-will/payments',
    {
      config: { auth: 'user' },
      schema: {
        summary: "The signed-in user's goodwill shares and their forwarding",
        operationId: 'listGoodwillShares',
        tags: ['goodwill'],
        querystring: GoodWillPaymentsQuery,
        response: { 200: GoodWillPayments, 400: FieldErrors, 401: Message },
      },
    },
    async (req) => (await paymentsOf(ctx.db, requireUser(req).id, req.query)).map(presentShare),
  );

  app.get(
    '/api/good-will/payments',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'Every forwarded batch, as a CSV file (public)',
        operationId: 'downloadGoodwillForwarding',
        tags: ['goodwill'],
        response: { 200: GoodWillCsv },
      },
    },
    async (_req, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${GOODWILL_CSV_NAME}"`)
        .header('cache-control', 'no-cache')
        .send(batchesCsv(await forwardedBatches(ctx.reads.lagTolerant()))),
  );

  app.get(
    '/api/good-will/totals',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'What each cause has received (public)',
        operationId: 'getGoodwillTotals',
        tags: ['goodwill'],
        response: { 200: GoodWillTotals },
      },
    },
    async () => presentTotals(await goodwillTotals(ctx.reads.lagTolerant())),
  );
}
