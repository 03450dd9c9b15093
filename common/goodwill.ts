/**
 * Goodwill (docs/product.md#goodwill): half of every spend goes to the cause the user chose.
 * The forwarding job moves each cause's payable to forwarded once a month; each move is a batch with a reference.
 */

import { DEFAULT_GOODWILL, GOODWILL_TYPES, type GoodWillType } from './constants';

/**
 * The half of a spend that goes to the spender's cause, rounded down; the platform keeps the rest (revenue gets
 * `amount - goodwillShare(amount)`). The database's `ledger_spend` (migration 0019) writes the same split;
 * server/src/ledger/spend.test.ts holds it to this rule.
 */
export const goodwillShare = (amount: number): number => Math.floor(amount / 2);

/** The cause a user's spends pay: the one they chose, the default until they choose one (or for anything else). */
export function spenderCause(goodWill: string | null): GoodWillType {
  return (GOODWILL_TYPES as readonly string[]).includes(goodWill ?? '') ? (goodWill as GoodWillType) : DEFAULT_GOODWILL;
}

/** The fixed payment reference every forwarded payment carries; a batch's own reference starts with it. */
export const GOODWILL_REFERENCE = 'PICTUREWALL-GOODWILL';

/** A batch's reference: the fixed reference, the month it was forwarded in (UTC) and the batch's id. */
export function batchReference(batchId: number, forwardedOn: Date): string {
  const month = forwardedOn.toISOString().slice(0, 7).replace('-', '');
  return `${GOODWILL_REFERENCE}-${month}-${batchId}`;
}

/** The public CSV of forwarded batches (GET /api/good-will/payments). */
export const GOODWILL_CSV_NAME = 'goodwill_payments.csv';
export const GOODWILL_CSV_HEADER = 'batchId,cause,amount,forwardedOn,reference';

/** Payments a page of GET /api/user/good-will/payments holds at most. */
export const GOODWILL_PAGE_MAX = 100;
export const GOODWILL_PAGE_DEFAULT = 50;

/** How a share's status reads on screen: in words, never the code. */
export const GOODWILL_STATUS_LABELS = {
  PENDING: 'Waiting to be forwarded',
  FORWARDED: 'Forwarded',
} as const;

/** How each cause reads on screen. */
export const GOODWILL_LABELS = {
  THIRD_COUNTRY: 'Third countries',
  ENVIRONMENTAL: 'Environment',
  HUMAN_RIGHTS: 'Human rights',
  SCIENCE: 'Science',
  POLITICS: 'Politics',
  OPEN_SOURCE: 'Open source',
} as const;
