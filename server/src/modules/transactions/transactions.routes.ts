import { CsvFile, FieldErrors, Message } from '../../../../common/api/shared';
import {
  TRANSACTIONS_CSV_NAME,
  TransactionPageQuery,
  TransactionRows,
  TransactionSummary,
  TransactionTypeParams,
} from '../../../../common/api/transactions';
import type { App, AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { presentCsv, presentRow } from './transactions.presenter';
import { transactionsOfType, transactionSummary, wholeStatement } from './transactions.service';

/** The signed-in user's statement (docs/product.md#statement). Read only: no idempotency keys. */
export async function transactionRoutes(app: App, ctx: AppContext): Promise<void> {
  const tags = ['transactions'];

  app.get(
    '/api/user-transactions',
    {
      config: { auth: 'user' },
      schema: {
        summary: "The signed-in user's statement: each type's sum, and what open offers hold",
        operationId: 'getStatement',
        tags,
        response: { 200: TransactionSummary, 401: Message },
      },
    },
    async (req) => transactionSummary(ctx, requireUser(req).id),
  );

  app.get(
    '/api/user-transactions.csv',
    {
      config: { auth: 'user' },
      schema: {
        summary: "The signed-in user's statement as a CSV file",
        operationId: 'downloadStatement',
        tags,
        response: { 200: CsvFile(`The statement as ${TRANSACTIONS_CSV_NAME}`), 401: Message },
      },
    },
    async (req, reply) => {
      const csv = presentCsv(await wholeStatement(ctx, requireUser(req).id));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${TRANSACTIONS_CSV_NAME}"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );

  app.get(
    '/api/user-transactions/:type',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'A page of the rows of one type of transaction',
        operationId: 'listTransactionsOfType',
        tags,
        params: TransactionTypeParams,
        querystring: TransactionPageQuery,
        response: { 200: TransactionRows, 400: FieldErrors, 401: Message },
      },
    },
    async (req) => (await transactionsOfType(ctx, requireUser(req).id, req.params.type, req.query)).map(presentRow),
  );
}
