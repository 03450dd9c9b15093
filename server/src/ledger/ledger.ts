import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../db/connection';
import type { Work } from '../db/unit-of-work';
import { InsufficientFunds } from '../http/errors';
import { userEvent } from '../live/bus';
import { account, availableOwner, isGuarded } from './accounts';

/** What a journal entry pays for; transaction lists and reports group by it. */
export type EntryKind =
  | 'TOPUP'
  | 'CHARITY_CREDIT'
  | 'IMAGE'
  | 'ITEM_BUY'
  | 'ITEM_SELL'
  | 'CHAT_MESSAGE'
  | 'COMMENT'
  | 'KEY'
  | 'GRAPH'
  | 'ESCROW'
  | 'GOODWILL_FORWARD'
  | 'TEST';

export interface Posting {
  account: string;
  /** Cents; positive credits the account, negative debits it. */
  amount: number;
}

export interface EntryInput {
  kind: EntryKind;
  userId: number | null;
  resourceId?: string | null;
  memo?: unknown;
  postings: Posting[];
}

export interface PostResult {
  entryId: number;
  /** New balance of every guarded account the entry touched. */
  balances: Map<string, number>;
}

export class LedgerError extends Error {}

/** Sums postings per account and refuses anything that is not a balanced entry of whole cents. */
export function netPostings(postings: Posting[]): Map<string, number> {
  if (postings.length < 2) throw new LedgerError('an entry needs at least two postings');
  const net = new Map<string, number>();
  let total = 0;
  for (const p of postings) {
    if (!Number.isSafeInteger(p.amount) || p.amount === 0) throw new LedgerError(`bad amount ${p.amount}`);
    net.set(p.account, (net.get(p.account) ?? 0) + p.amount);
    total += p.amount;
  }
  if (total !== 0) throw new LedgerError(`postings sum to ${total}, not 0`);
  for (const [code, amount] of net) if (amount === 0) net.delete(code);
  return net;
}

/**
 * Writes one journal entry inside the caller's transaction. Guarded accounts are updated first, in code order (the
 * fixed lock order), each debit as `balance >= x` so a short balance fails without ever going negative. System
 * accounts are not updated at all: their balance is the sum of their postings, so no spend waits on a shared row.
 */
export async function post(work: Work, input: EntryInput): Promise<PostResult> {
  const net = netPostings(input.postings);
  const balances = new Map<string, number>();
  const guarded = [...net.keys()].filter(isGuarded).sort();

  for (const code of guarded) {
    const delta = net.get(code)!;
    const updated = await rows<{ balance: number }>(
      work.tx,
      delta < 0
        ? sql`UPDATE ledger_accounts SET balance = balance + ${delta} WHERE code = ${code} AND balance >= ${-delta} RETURNING balance`
        : sql`UPDATE ledger_accounts SET balance = balance + ${delta} WHERE code = ${code} RETURNING balance`,
    );
    if (updated.length === 0) {
      const [current] = await rows<{ balance: number }>(
        work.tx,
        sql`SELECT balance FROM ledger_accounts WHERE code = ${code}`,
      );
      if (!current) throw new LedgerError(`no account ${code}`);
      throw new InsufficientFunds(-delta - current.balance);
    }
    balances.set(code, updated[0]!.balance);
  }

  const values = sql.join(
    input.postings.map((p) => sql`(${p.account}, ${p.amount}::bigint)`),
    sql`, `,
  );
  const memo = input.memo === undefined ? null : JSON.stringify(input.memo);
  const [entry] = await rows<{ entry_id: number }>(
    work.tx,
    sql`WITH e AS (
          INSERT INTO journal_entries (kind, user_id, resource_id, memo)
          VALUES (${input.kind}, ${input.userId}, ${input.resourceId ?? null}, ${memo}::jsonb)
          RETURNING id)
        INSERT INTO postings (entry_id, account_code, amount)
        SELECT e.id, v.code, v.amount FROM e, (VALUES ${values}) AS v(code, amount)
        RETURNING entry_id`,
  );

  for (const [code, value] of balances) {
    const owner = availableOwner(code);
    if (owner !== undefined) work.emit(userEvent(owner, 'balance', { value }));
  }
  return { entryId: entry!.entry_id, balances };
}

/** A user's spendable balance in cents. */
export async function availableBalance(exec: Executor, userId: number): Promise<number> {
  const [row] = await rows<{ balance: number }>(
    exec,
    sql`SELECT balance FROM ledger_accounts WHERE code = ${account.available(userId)}`,
  );
  return row?.balance ?? 0;
}
