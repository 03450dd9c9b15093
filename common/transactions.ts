/* The statement's types and limits, for the server and the web client alike (common/api/transactions.ts has the
 * schemas). */

/**
 * The four standing types first (docs/product.md#statement; the order the summary is shown in), then the rest of a complete statement. REFUND is a
 * moderator's refund (positive), written by no code yet.
 */
export const TRANSACTION_TYPES = [
  'IMAGE',
  'ITEM_SELL',
  'ITEM_BUY',
  'CHAT_MESSAGE',
  'TOP_UP',
  'KEY',
  'COMMENT',
  'REACTION',
  'PIN',
  'GRAPH',
  'CHARITY',
  'REFUND',
] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

export const isTransactionType = (s: string): s is TransactionType =>
  (TRANSACTION_TYPES as readonly string[]).includes(s);

/** Rows per page of `GET /api/user-transactions/{type}`. */
export const DEFAULT_TRANSACTIONS_PAGE = 50;
export const MAX_TRANSACTIONS_PAGE = 200;

/** GET /api/user-transactions.csv: the file name of the download. */
export const TRANSACTIONS_CSV_NAME = 'transactions.csv';
export const TRANSACTIONS_CSV_HEADER = ['time', 'type', 'amount_cents', 'resource_id', 'preview'] as const;
