import { Type, type Static, type TInteger } from 'typebox';
import { Digits, Nullable } from './shared';
import {
  DEFAULT_TRANSACTIONS_PAGE,
  MAX_TRANSACTIONS_PAGE,
  TRANSACTION_TYPES,
  type TransactionType,
} from '../transactions';

export * from '../transactions';

/*
 * The user's statement (docs/product.md#statement). Amounts are signed cents of the user's money (available and held by
 * buy offers): spent is negative, received positive, so a statement's rows add up to balance + held.
 */

/**
 * GET /api/user-transactions: every type with the signed sum of its rows (0 when none), and `held`: the money in the
 * user's open buy offers (≥ 0). ITEM_BUY and ITEM_SELL are fills only; placing, replacing or cancelling an offer is
 * no row. The types' sums add up to balance + held.
 */
export const TransactionSummary = Type.Object({
  ...(Object.fromEntries(TRANSACTION_TYPES.map((t) => [t, Type.Integer({ description: 'Signed cents' })])) as Record<
    TransactionType,
    TInteger
  >),
  held: Type.Integer({ minimum: 0, description: "Cents held by the user's open buy offers" }),
});
export type TransactionSummary = Record<TransactionType, number> & { held: number };

/** One row of the statement (docs/product.md#statement). */
export const TransactionRow = Type.Object({
  /** The journal entry; rows of one type are newest first, and `before` pages on from the last row's id. */
  id: Type.Integer(),
  time: Type.String({ description: 'ISO 8601' }),
  payAmount: Type.Integer({ description: 'Signed cents: spent is negative' }),
  resourceId: Nullable(Type.String({ description: 'Picture id, item type, chat message id, comment id…' })),
  resourcePreview: Nullable(
    Type.String({ description: 'IMAGE: image URL; ITEM_*: item type; CHAT_MESSAGE, COMMENT, PIN: the text' }),
  ),
});
export type TransactionRow = Static<typeof TransactionRow>;

export const TransactionRows = Type.Array(TransactionRow);
export type TransactionRows = Static<typeof TransactionRows>;

/** The type is checked by the handler (400 on `type`), so the answer names the field like every other 400. */
export const TransactionTypeParams = Type.Object({ type: Type.String({ maxLength: 40 }) });
export type TransactionTypeParams = Static<typeof TransactionTypeParams>;

export const TransactionPageQuery = Type.Object({
  limit: Type.Optional(Digits(4, `Rows, 1 to ${MAX_TRANSACTIONS_PAGE} (default ${DEFAULT_TRANSACTIONS_PAGE})`)),
  before: Type.Optional(Digits(18, 'The id of the last row already shown: the page goes on after it')),
});
export type TransactionPageQuery = Static<typeof TransactionPageQuery>;
