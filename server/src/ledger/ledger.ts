import { sql, type SQL } from 'drizzle-orm';
import { sqlRows, type Executor, type Columns } from '../db/connection';
import type { ledgerAccounts } from '../db/core.tables';
import { audience, type Work } from '../db/unit-of-work';
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

/** The balance is short of what a debit needs. The HTTP layer answers 402 with `missing` (docs/product.md#money). */
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
  | 'REFUND'
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

/**
 * Writes one journal entry inside the caller's transaction, in one statement (one round trip, however many accounts it
 * moves). The guarded (user) accounts are first locked in code order, the fixed lock order (`ORDER BY … FOR UPDATE`
 * locks rows as the sorted rows come out), so entries over the same accounts never deadlock; then each moves by its
 * net amount only if it stays at or above zero. The entry and its postings are written only if every guarded account
 * moved: a short balance writes nothing and throws InsufficientFunds, and the caller's transaction rolls back.
 * System accounts are not updated at all: their balance is the sum of their postings, so no spend ever waits on a
 * shared row.
 */
export async function post(work: Work, input: EntryInput): Promise<PostResult> {
  const net = netPostings(input.postings);
  const guarded = [...net.keys()].sort();
  const values = sql.join(
    input.postings.map((p) => sql`(${p.account}, ${p.amount}::bigint)`),
    sql`, `,
  );
  const memo = input.memo === undefined ? null : JSON.stringify(input.memo);
  const moved =
    guarded.length === 0
      ? sql`g AS (SELECT NULL::text AS code, NULL::bigint AS balance WHERE false), ok AS (SELECT true AS ok)`
      : sql`v (code, delta) AS (VALUES ${sql.join(
          guarded.map((code) => sql`(${code}, ${net.get(code)!}::bigint)`),
          sql`, `,
        )}),
        l AS (SELECT a.code FROM ledger_accounts a WHERE a.code IN (SELECT code FROM v) ORDER BY a.code FOR UPDATE),
        g AS (UPDATE ledger_accounts a SET balance = a.balance + v.delta FROM l, v
              WHERE a.code = l.code AND v.code = l.code AND a.balance + v.delta >= 0 RETURNING a.code, a.balance),
        ok AS (SELECT count(*) = ${guarded.length} AS ok FROM g)`;
  const [row] = await sqlRows(
    work.tx,
    sql<{ entry_id: number | null; moved: [string, number][] | null }>`WITH ${moved},
        e AS (INSERT INTO journal_entries (kind, user_id, resource_id, memo)
              SELECT ${input.kind}, ${input.userId}::bigint, ${input.resourceId ?? null}, ${memo}::jsonb FROM ok
              WHERE ok.ok RETURNING id),
        p AS (INSERT INTO postings (entry_id, account_code, amount)
              SELECT e.id, v.code, v.amount FROM e, (VALUES ${values}) AS v(code, amount) RETURNING 1)
        SELECT (SELECT id FROM e) AS entry_id, (SELECT json_agg(json_build_array(code, balance)) FROM g) AS moved`,
  );
  const balances = new Map((row?.moved ?? []).map(([code, balance]) => [code, Number(balance)]));
  if (row?.entry_id == null) {
    const short = guarded.find((code) => !balances.has(code))!;
    return refuse(work, short, net.get(short)!);
  }
  announceBalances(work, balances);
  return { entryId: Number(row.entry_id), balances };
}

/** Tells each user whose available money moved their new balance (sent after the commit). */
export function announceBalances(work: Work, balances: ReadonlyMap<string, number>): void {
  for (const [code, value] of balances) {
    const owner = availableOwner(code);
    if (owner !== undefined) work.emit('balance', 'update', { value }, audience.user(owner));
  }
}

/** A guarded update found nothing: the account is short (402 with what is missing) or does not exist. */
async function refuse(work: Work, code: string, delta: number): Promise<never> {
  const [current] = await sqlRows(
    work.tx,
    sql<Columns<typeof ledgerAccounts, 'balance'>>`SELECT balance FROM ledger_accounts WHERE code = ${code}`,
  );
  if (!current) throw new LedgerError(`no account ${code}`);
  throw new InsufficientFunds(-delta - current.balance);
}

/** A user's spendable balance in cents. */
export async function availableBalance(exec: Executor, userId: number): Promise<number> {
  const [row] = await sqlRows(
    exec,
    sql<
      Columns<typeof ledgerAccounts, 'balance'>
    >`SELECT balance FROM ledger_accounts WHERE code = ${account.available(userId)}`,
  );
  return row?.balance ?? 0;
}
