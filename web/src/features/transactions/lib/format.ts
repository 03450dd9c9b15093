import type { TransactionRow } from '../../../../../common/api/transactions';
import { formatMoney } from '../../../../../common/money';
import { isTransactionType, type TransactionType } from '../../../../../common/transactions';

export const asTransactionType = (s: string | undefined): TransactionType | undefined =>
  s !== undefined && isTransactionType(s) ? s : undefined;

/** The four standing types are always listed (docs/product.md#statement); the others once they have money in them. */
export const ALWAYS_LISTED: readonly TransactionType[] = ['IMAGE', 'ITEM_SELL', 'ITEM_BUY', 'CHAT_MESSAGE'];

export const TYPE_LABEL: Record<TransactionType, string> = {
  IMAGE: 'Pictures',
  ITEM_SELL: 'Items sold',
  ITEM_BUY: 'Items bought',
  CHAT_MESSAGE: 'Chat messages',
  TOP_UP: 'Top-ups',
  KEY: 'Keys',
  COMMENT: 'Comments',
  REACTION: 'Reactions',
  PIN: 'Pins',
  GRAPH: 'Market graphs',
  CHARITY: 'Charity',
  REFUND: 'Refunds',
};

/** The detail table's first column (docs/product.md#statement: Preview, Item or Message). */
export function firstColumnOf(type: TransactionType): string {
  switch (type) {
    case 'IMAGE':
      return 'Preview';
    case 'ITEM_BUY':
    case 'ITEM_SELL':
      return 'Item';
    case 'CHAT_MESSAGE':
      return 'Message';
    case 'COMMENT':
    case 'PIN':
      return 'Comment';
    case 'REACTION':
      return 'Reaction';
    case 'KEY':
    case 'GRAPH':
    case 'TOP_UP':
    case 'CHARITY':
    case 'REFUND':
      return 'Details';
  }
}

/** A chat message longer than 10 characters shows its first 8 and '...' (docs/product.md#statement). Counts characters, not UTF-16 units. */
export function shortMessage(text: string): string {
  const chars = [...text];
  return chars.length > 10 ? `${chars.slice(0, 8).join('')}...` : text;
}

/** Where a row goes when clicked (docs/product.md#statement): the picture's page, or the item's detail with its graph. */
export function linkOf(type: TransactionType, row: TransactionRow): string | undefined {
  if (!row.resourceId) return undefined;
  if (type === 'IMAGE') return `/image/profile/${encodeURIComponent(row.resourceId)}`;
  if (type === 'ITEM_BUY' || type === 'ITEM_SELL') return `/items-detail/${encodeURIComponent(row.resourceId)}/graph`;
  return undefined;
}

/**
 * What the summary says of the money the user's open buy offers hold, or nothing when they hold none. It is part of
 * the user's money (the types add up to balance + held) but not spent: it comes back if the offer is cancelled.
 */
export function heldText(held: number): string | undefined {
  return held > 0 ? `Held in buy offers: ${formatMoney(held)}` : undefined;
}

/** Spent is red, received green (docs/product.md#statement). */
export const amountClass = (cents: number) =>
  cents < 0 ? 'amount amount--negative' : cents > 0 ? 'amount amount--positive' : 'amount';
