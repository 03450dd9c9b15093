import { sql, type SQL } from 'drizzle-orm';
import { sqlRows, type Columns, type Executor, type SqlRow } from '../../db/connection';
import type { journalEntries } from '../../db/core.tables';
import { account } from '../../ledger/ledger';
import type { TransactionType } from '../../../../common/api/transactions';
import type { chatMessages } from '../chat/chat.tables';
import type { comments } from '../comments/comments.tables';
import type { pictures } from '../pictures/pictures.tables';

/**
 * All of the statement's SQL. A user's statement is the postings on their own money: the `user:{id}:available` and
 * `user:{id}:escrow` accounts (index `postings_account`), one row per journal entry, its amount the entry's net change
 * of the two (an order's entry may post several fills), joined to the entry by its primary key. Money moving between
 * the two (a buy offer placed, replaced or cancelled: what it holds) nets to zero and is no row, so ITEM_BUY and
 * ITEM_SELL rows are fills only, and every row adds up to balance + held (docs/decisions.md, "The statement
 * reconciles with the money"). The entry's kind gives the row's type; a market entry (written under its taker, with
 * the makers' sides in it) is ITEM_BUY for whoever it charged and ITEM_SELL for whoever it paid. Previews are read from
 * the domains' tables by id (read only, one page at a time).
 */
export type StatementRow = Columns<typeof journalEntries, 'id' | 'created_at' | 'resource_id'> & {
  /** Computed: the row's type, from the entry's kind and the sign of the amount. */
  type: TransactionType;
  /** Computed: the entry's net change of the user's two accounts. */
  amount: number;
  /** The entry's memo, the JSON object the ledger's command wrote (the column is any JSON). */
  memo: Record<string, unknown> | null;
  /** The previews, each null unless the row's type names one (left joins). */
  image_key: SqlRow<typeof pictures>['image_key'] | null;
  message_body: SqlRow<typeof chatMessages>['body'] | null;
  comment_body: SqlRow<typeof comments>['body'] | null;
  /** Computed: a moderator removed the content the row paid for (docs/product.md#moderation); the row stays. */
  removed: boolean;
};

/** The type of a row, from its entry `e` and the user's signed amount `m.amount`. */
const typeOf = sql`CASE
    WHEN e.kind IN ('ITEM_BUY', 'ITEM_SELL', 'ESCROW') THEN CASE WHEN m.amount > 0 THEN 'ITEM_SELL' ELSE 'ITEM_BUY' END
    WHEN e.kind = 'TOPUP' THEN 'TOP_UP'
    WHEN e.kind = 'CHARITY_CREDIT' THEN 'CHARITY'
    WHEN e.kind IN ('IMAGE', 'CHAT_MESSAGE', 'COMMENT', 'REACTION', 'PIN', 'KEY', 'GRAPH', 'REFUND') THEN e.kind
  END`;

/** The user's entries with their signed amount and type, before any filter. */
function mine(userId: number): SQL {
  return sql`SELECT e.id, e.kind, e.resource_id, e.memo, e.created_at, m.amount::bigint AS amount, ${typeOf} AS type
             FROM (SELECT p.entry_id, sum(p.amount) AS amount FROM postings p
                   WHERE p.account_code IN (${account.available(userId)}, ${account.escrow(userId)})
                   GROUP BY p.entry_id) m
             JOIN journal_entries e ON e.id = m.entry_id
             WHERE m.amount <> 0`;
}

/**
 * The summary's query (exported for the query plan test): the sums per type, and what the user's open buy offers
 * hold (their escrow account) under the type NULL, in one statement, so both are of one moment.
 */
export const summarySql = (userId: number) =>
  sql<{
    type: string | null;
    total: number;
  }>`SELECT s.type, sum(s.amount)::bigint AS total FROM (${mine(userId)}) s WHERE s.type IS NOT NULL GROUP BY s.type
      UNION ALL
      SELECT NULL, balance FROM ledger_accounts WHERE code = ${account.escrow(userId)}`;

/** Type → signed sum (types with no rows are missing), and the money held by open buy offers. */
export async function summary(exec: Executor, userId: number): Promise<{ sums: Map<string, number>; held: number }> {
  const found = await sqlRows(exec, summarySql(userId));
  return {
    sums: new Map(found.filter((r) => r.type !== null).map((r) => [r.type!, Number(r.total)])),
    held: Number(found.find((r) => r.type === null)?.total ?? 0),
  };
}

export interface StatementQuery {
  type?: TransactionType;
  before?: number;
  limit?: number;
}

/** The rows' query (exported for the query plan test). */
export function statementSql(userId: number, q: StatementQuery): SQL<StatementRow> {
  const filters: SQL[] = [sql`s.type IS NOT NULL`];
  if (q.type) filters.push(sql`s.type = ${q.type}`);
  if (q.before !== undefined) filters.push(sql`s.id < ${q.before}`);
  const limit = q.limit === undefined ? sql`` : sql`LIMIT ${q.limit}`;
  const idOf = (kinds: SQL) => sql`CASE WHEN s.kind IN (${kinds}) AND s.resource_id ~ '^[0-9]{1,18}$'
    THEN s.resource_id::bigint END`;
  return sql<StatementRow>`SELECT s.id, s.type, s.created_at, s.amount, s.resource_id, s.memo,
               pi.image_key, cm.body AS message_body, c.body AS comment_body,
               (pi.removed_at IS NOT NULL OR cm.removed_at IS NOT NULL OR c.removed_at IS NOT NULL
                OR EXISTS (SELECT 1 FROM comments rc WHERE rc.id = c.response_to AND rc.removed_at IS NOT NULL))
                 AS removed
        FROM (SELECT s.* FROM (${mine(userId)}) s WHERE ${sql.join(filters, sql` AND `)}
              ORDER BY s.id DESC ${limit}) s
        LEFT JOIN pictures pi ON pi.id = ${idOf(sql`'IMAGE'`)}
        LEFT JOIN chat_messages cm ON cm.id = ${idOf(sql`'CHAT_MESSAGE'`)}
        LEFT JOIN comments c ON c.id = ${idOf(sql`'COMMENT', 'PIN'`)}
        ORDER BY s.id DESC`;
}

/** Rows with what their previews need, newest first; `type` undefined means every row the statement has. */
export async function statement(exec: Executor, userId: number, q: StatementQuery): Promise<StatementRow[]> {
  const found = await sqlRows(exec, statementSql(userId, q));
  return found.map((r) => ({ ...r, id: Number(r.id), amount: Number(r.amount) }));
}
