import type { TransactionRow, TransactionType } from '../../../../common/api/transactions';
import { TRANSACTIONS_CSV_HEADER } from '../../../../common/api/transactions';
import { imageUrl } from '../../storage/storage';
import type { StatementRow } from './transactions.repository';

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

/** A removed content's preview on the statement. */
export const REMOVED_PREVIEW = 'removed';

const contentNames: Record<string, string> = { COMMENT: 'comment', CHAT: 'chat message', PICTURE: 'picture' };

/** What a row shows in its first column (docs/product.md#statement). */
export function previewOf(r: StatementRow): string | null {
  const memo = r.memo ?? {};
  // Content a moderator removed keeps its row, without its words or image (docs/product.md#moderation).
  if (r.removed) return REMOVED_PREVIEW;
  switch (r.type) {
    case 'IMAGE':
      return r.image_key ? imageUrl(r.image_key) : null;
    case 'ITEM_BUY':
    case 'ITEM_SELL':
      return r.resource_id;
    case 'CHAT_MESSAGE':
      return r.message_body;
    case 'COMMENT':
    case 'PIN':
      return r.comment_body;
    case 'REACTION':
      return typeof memo.reactionType === 'string' ? memo.reactionType : null;
    case 'KEY':
      return typeof memo.keys === 'number' ? `${memo.keys} ${memo.keys === 1 ? 'key' : 'keys'}` : null;
    case 'TOP_UP':
      return 'Card top-up';
    case 'GRAPH':
      return 'Market graphs';
    case 'CHARITY':
      // An approved donation link: the memo names the charity the admin typed (ledger creditCharity).
      return typeof memo.charityName === 'string' ? `Donation to ${memo.charityName}` : 'Charity credit';
    case 'REFUND':
      // A moderator's refund names what was removed (ledger refundSpend's memo).
      return typeof memo.contentType === 'string'
        ? `Refund: removed ${contentNames[memo.contentType] ?? 'content'}`
        : 'Refund';
  }
}

export function presentRow(r: StatementRow): TransactionRow {
  return {
    id: r.id,
    time: iso(r.created_at),
    payAmount: r.amount,
    resourceId: r.resource_id,
    resourcePreview: previewOf(r),
  };
}

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break. A text cell that a spreadsheet would
 * read as a formula (it starts with = + - @ or a tab) gets a leading apostrophe: previews are other users' words.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The whole statement as CSV: a header row, then one row per entry, newest first, amounts in integer cents. */
export function presentCsv(all: StatementRow[]): string {
  const lines = [TRANSACTIONS_CSV_HEADER.join(',')];
  for (const r of all) {
    lines.push(
      [iso(r.created_at), r.type as TransactionType, r.amount, r.resource_id, previewOf(r)].map(csvCell).join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
