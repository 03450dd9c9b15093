import type { AppContext } from '../../context';
import { fieldError } from '../../http/errors';
import {
  DEFAULT_TRANSACTIONS_PAGE,
  isTransactionType,
  MAX_TRANSACTIONS_PAGE,
  TRANSACTION_TYPES,
  type TransactionPageQuery,
  type TransactionSummary,
  type TransactionType,
} from '../../../../common/api/transactions';
import { statement, summary, type StatementRow } from './transactions.repository';

/** Every type with its signed sum (0 when the user has none of it), and what the user's open buy offers hold. */
export async function transactionSummary(ctx: AppContext, userId: number): Promise<TransactionSummary> {
  const { sums, held } = await summary(ctx.db, userId);
  const perType = Object.fromEntries(TRANSACTION_TYPES.map((t) => [t, sums.get(t) ?? 0]));
  return { ...(perType as Record<TransactionType, number>), held };
}

/** One page of one type's rows, newest first. */
export async function transactionsOfType(
  ctx: AppContext,
  userId: number,
  type: string,
  q: TransactionPageQuery,
): Promise<StatementRow[]> {
  if (!isTransactionType(type)) throw fieldError('type', `The type is one of ${TRANSACTION_TYPES.join(', ')}.`);
  const limit = Number(q.limit ?? DEFAULT_TRANSACTIONS_PAGE);
  if (limit < 1 || limit > MAX_TRANSACTIONS_PAGE) {
    throw fieldError('limit', `The limit is 1 to ${MAX_TRANSACTIONS_PAGE}.`);
  }
  const before = q.before === undefined ? undefined : Number(q.before);
  return statement(ctx.db, userId, { type, limit, before });
}

/** The whole statement, newest first (the CSV download). */
export function wholeStatement(ctx: AppContext, userId: number): Promise<StatementRow[]> {
  return statement(ctx.db, userId, {});
}
