import { sql, type SQL } from 'drizzle-orm';
import { rows, type Executor } from '../db/connection';
import type { Work } from '../db/unit-of-work';
import { GOODWILL_TYPES, type GoodWillType } from '../../../common/constants';

// Accounts

/**
 * Account codes. A code names an account for good, so postings can refer to it without a lookup.
 * `user:*` accounts are guarded (balance kept, never negative); all others are system accounts.
 */
export const account = {
  available: (userId: number) => `user:${userId}:available`,
  escrow: (userId: number) => `user:${userId}:escrow`,
  revenue: 'platform:revenue',
  marketFees: 'platform:market-fees',
  goodwillPayable: (cause: GoodWillType) => `goodwill:${cause}:payable`,
  goodwillForwarded: (cause: GoodWillType) => `goodwill:${cause}:forwarded`,
  externalCard: 'external:card',
  externalCharity: 'external:charity',
} as const;

export const isGuarded = (code: string) => code.startsWith('user:');

/** The user whose available money an account code holds, if it is one. */
export function availableOwner(code: string): number | undefined {
  const m = /^user:(\d+):available$/.exec(code);
  return m ? Number(m[1]) : undefined;
}

export interface AccountRow {
  code: string;
  kind: string;
  userId: number | null;
  cause: string | null;
  guarded: boolean;
}

export function systemAccounts(): AccountRow[] {
  const sys = (code: string, kind: string, cause: string | null = null): AccountRow => ({
    code,
    kind,
    userId: null,
    cause,
    guarded: false,
  });
  return [
    sys(account.revenue, 'revenue'),
    sys(account.marketFees, 'market_fees'),
    sys(account.externalCard, 'external_card'),
    sys(account.externalCharity, 'external_charity'),
    ...GOODWILL_TYPES.flatMap((c) => [
      sys(account.goodwillPayable(c), 'goodwill_payable', c),
      sys(account.goodwillForwarded(c), 'goodwill_forwarded', c),
    ]),
  ];
}

export function userAccounts(userId: number): AccountRow[] {
  return [
    { code: account.available(userId), kind: 'available', userId, cause: null, guarded: true },
    { code: account.escrow(userId), kind: 'escrow', userId, cause: null, guarded: true },
  ];
}

// Entries

/** A ledger rule was broken by the caller: an unbalanced entry, a fraction of a cent, an unknown account. A bug. */
export class LedgerError extends Error {}

/** The balance is short of what a debit needs. The HTTP layer answers 402 with `missing` (DESIGN.md §2). */
export class InsufficientFunds extends Error {
  constructor(readonly missing: number) {
    super(`balance short by ${missing} cents`);
  }
}

/** What a journal entry pays for; transaction lists and reports group by it. */
export type EntryKind =
  | 'TOPUP'
  | 'CHARITY_CREDIT'
  | 'IMAGE'
  | 'ITEM_BUY'
  | 'ITEM_SELL'
  | 'CHAT_MESSAGE'
  | 'COMMENT'
  | 'REACTION'
  | 'PIN'
  | 'KEY'
  | 'GRAPH'
  | 'ESCROW'
  | 'GOODWILL_FORWARD'
  | 'LOOTBOX'
  | 'TEST';

export interface Posting {
  /**
   * An account code, or for system accounts an SQL expression that yields one (a spend names the goodwill account
   * of the spender's cause without a round trip to look the cause up).
   */
  account: string | SQL;
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

/**
 * Sums the guarded (user) accounts' postings per account and refuses anything that is not a balanced entry of whole
 * cents. Accounts given as SQL must be system accounts: they are never guarded.
 */
export function netPostings(postings: Posting[]): Map<string, number> {
  if (postings.length < 2) throw new LedgerError('an entry needs at least two postings');
  const net = new Map<string, number>();
  let total = 0;
  for (const p of postings) {
    if (!Number.isSafeInteger(p.amount) || p.amount === 0) throw new LedgerError(`bad amount ${p.amount}`);
    total += p.amount;
    if (typeof p.account === 'string' && isGuarded(p.account)) {
      net.set(p.account, (net.get(p.account) ?? 0) + p.amount);
    }
  }
  if (total !== 0) throw new LedgerError(`postings sum to ${total}, not 0`);
  for (const [code, amount] of net) if (amount === 0) net.delete(code);
  return net;
}

const guardedUpdate = (code: string, delta: number) =>
  delta < 0
    ? sql`UPDATE ledger_accounts SET balance = balance + ${delta} WHERE code = ${code} AND balance >= ${-delta} RETURNING balance`
    : sql`UPDATE ledger_accounts SET balance = balance + ${delta} WHERE code = ${code} RETURNING balance`;

/**
 * Writes one journal entry inside the caller's transaction. Guarded accounts are updated in code order (the fixed
 * lock order), each debit as `balance >= x`, so a short balance fails without ever going negative. The last guarded
 * update, the entry and its postings are one statement: the entry exists only if that update succeeded, and a spend
 * costs one round trip. System accounts are not updated at all: their balance is the sum of their postings, so no
 * spend ever waits on a shared row.
 */
export async function post(work: Work, input: EntryInput): Promise<PostResult> {
  const net = netPostings(input.postings);
  const balances = new Map<string, number>();
  const guarded = [...net.keys()].sort();
  const last = guarded.pop();

  for (const code of guarded) {
    const [updated] = await rows<{ balance: number }>(work.tx, guardedUpdate(code, net.get(code)!));
    if (!updated) await refuse(work, code, net.get(code)!);
    balances.set(code, updated!.balance);
  }

  const values = sql.join(
    input.postings.map((p) => sql`(${p.account}, ${p.amount}::bigint)`),
    sql`, `,
  );
  const memo = input.memo === undefined ? null : JSON.stringify(input.memo);
  const entry = sql`INSERT INTO journal_entries (kind, user_id, resource_id, memo)
    SELECT ${input.kind}, ${input.userId}::bigint, ${input.resourceId ?? null}, ${memo}::jsonb FROM g RETURNING id`;
  const [row] = await rows<{ entry_id: number; balance: number | null }>(
    work.tx,
    sql`WITH g AS (${last ? guardedUpdate(last, net.get(last)!) : sql`SELECT NULL::bigint AS balance`}),
        e AS (${entry}),
        p AS (INSERT INTO postings (entry_id, account_code, amount)
              SELECT e.id, v.code, v.amount FROM e, (VALUES ${values}) AS v(code, amount) RETURNING 1)
        SELECT e.id AS entry_id, g.balance FROM e, g`,
  );
  if (!row) await refuse(work, last!, net.get(last!)!);
  if (last) balances.set(last, row!.balance!);

  for (const [code, value] of balances) {
    const owner = availableOwner(code);
    if (owner !== undefined) work.emit('balance', 'update', { value }, owner);
  }
  return { entryId: row!.entry_id, balances };
}

/** A guarded update found nothing: the account is short (402 with what is missing) or does not exist. */
async function refuse(work: Work, code: string, delta: number): Promise<never> {
  const [current] = await rows<{ balance: number }>(
    work.tx,
    sql`SELECT balance FROM ledger_accounts WHERE code = ${code}`,
  );
  if (!current) throw new LedgerError(`no account ${code}`);
  throw new InsufficientFunds(-delta - current.balance);
}

/** A user's spendable balance in cents. */
export async function availableBalance(exec: Executor, userId: number): Promise<number> {
  const [row] = await rows<{ balance: number }>(
    exec,
    sql`SELECT balance FROM ledger_accounts WHERE code = ${account.available(userId)}`,
  );
  return row?.balance ?? 0;
}
