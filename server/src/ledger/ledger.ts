import { sql } from 'drizzle-orm';
import { sqlRows, type Executor, type Columns } from '../db/connection';
import type { ledgerAccounts } from '../db/core.tables';
import { int, literal, type Events } from '../db/one-call';
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
  /** An account code. */
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

/**
 * Sums the guarded (user) accounts' postings per account and refuses anything that is not a balanced entry of whole
 * cents.
 */
export function netPostings(postings: Posting[]): Map<string, number> {
  if (postings.length < 2) throw new LedgerError('an entry needs at least two postings');
  const net = new Map<string, number>();
  let total = 0;
  for (const p of postings) {
    if (!Number.isSafeInteger(p.amount) || p.amount === 0) throw new LedgerError(`bad amount ${p.amount}`);
    total += p.amount;
    if (isGuarded(p.account)) net.set(p.account, (net.get(p.account) ?? 0) + p.amount);
  }
  if (total !== 0) throw new LedgerError(`postings sum to ${total}, not 0`);
  for (const [code, amount] of net) if (amount === 0) net.delete(code);
  return net;
}

/**
 * What the database's ledger functions answer (migration 0019): the entry and the new balance of each user account
 * it moved, or the first user account that was short and by how much (then nothing was written).
 */
export type LedgerAnswer = { entryId: number; balances: [string, number][] } | { short: string; missing: number };

/** The text of a value for the entry's memo column. */
export function memoText(memo: unknown): string {
  return memo === undefined || memo === null ? 'NULL::jsonb' : `${literal(JSON.stringify(memo))}::jsonb`;
}

/**
 * The text of a call of `ledger_post` writing `input`, `SELECT ledger_post(…) AS r`: every value a number of ours or
 * a literal, no parameters.
 */
export function postCall(input: EntryInput): string {
  netPostings(input.postings);
  const codes = input.postings.map((p) => literal(p.account)).join(', ');
  const amounts = input.postings.map((p) => int(p.amount)).join(', ');
  return (
    `SELECT ledger_post(${literal(input.kind)}, ${int(input.userId)}::bigint, ${literal(input.resourceId ?? null)}, ` +
    `${memoText(input.memo)}, ARRAY[${codes}]::text[], ARRAY[${amounts}]::bigint[]) AS r`
  );
}

/**
 * Reads a ledger function's answer: a short balance throws InsufficientFunds with what is missing; an entry tells
 * each user whose available money moved their new balance (through `events`: sent after the commit).
 */
export function readAnswer(answer: LedgerAnswer | undefined, events: Events): PostResult {
  if (!answer) throw new LedgerError('the ledger function answered nothing');
  if ('short' in answer) throw new InsufficientFunds(Number(answer.missing));
  const balances = new Map(answer.balances.map(([code, balance]) => [code, Number(balance)]));
  announceBalances(events, balances);
  return { entryId: Number(answer.entryId), balances };
}

/** Runs a ledger function's call inside the caller's transaction and reads its answer. */
export async function callIn(work: Work, call: string): Promise<PostResult> {
  const [row] = await sqlRows(work.tx, sql<{ r: LedgerAnswer }>`${sql.raw(call)}`);
  return readAnswer(row?.r, work);
}

/**
 * Writes one journal entry inside the caller's transaction, in one call of the database's `ledger_post` (migration
 * 0019): the guarded (user) accounts move by their net amount in code order, the fixed lock order, so entries over
 * the same accounts never deadlock, each only if it stays at or above zero; the entry and its postings are written
 * only if every guarded account moved. A short balance writes nothing and throws InsufficientFunds, answered by the
 * same call. System accounts are not updated at all: their balance is the sum of their postings, so no spend ever
 * waits on a shared row. The call's text has no parameters, so a transaction's first call travels with its BEGIN
 * (the held BEGIN of db/postgres.ts).
 */
export function post(work: Work, input: EntryInput): Promise<PostResult> {
  return callIn(work, postCall(input));
}

/** Tells each user whose available money moved their new balance (sent after the commit). */
export function announceBalances(events: Events, balances: ReadonlyMap<string, number>): void {
  for (const [code, value] of balances) {
    const owner = availableOwner(code);
    if (owner !== undefined) events.emit('balance', 'update', { value }, audience.user(owner));
  }
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
