import { sql } from 'drizzle-orm';
import { sqlRows, type Executor } from '../db/connection';
import { gatheredLanes } from '../db/lanes';
import { int, literal, type OneCaller } from '../db/one-call';
import type { Work } from '../db/unit-of-work';
import { postItems } from './items';
import {
  account,
  callIn,
  memoText,
  post,
  readAnswer,
  systemAccounts,
  userAccounts,
  type EntryKind,
  type LedgerAnswer,
  type PostResult,
} from './ledger';

/**
 * The named money movements. Every feature moves money through one of these, inside its own transaction, so the
 * business change and its payment commit or fail together.
 */

/** Creates the platform's accounts; safe to run on every start. */
export async function ensureSystemAccounts(exec: Executor): Promise<void> {
  await insertAccounts(exec, systemAccounts());
}

/** Opens a new user's available and escrow accounts. */
export async function openUserAccounts(exec: Executor, userId: number): Promise<void> {
  await insertAccounts(exec, userAccounts(userId));
}

async function insertAccounts(exec: Executor, accounts: ReturnType<typeof systemAccounts>): Promise<void> {
  const values = sql.join(
    accounts.map((a) => sql`(${a.code}, ${a.kind}, ${a.userId}::bigint, ${a.cause}, ${a.guarded})`),
    sql`, `,
  );
  await exec.execute(
    sql`INSERT INTO ledger_accounts (code, kind, user_id, cause, guarded) VALUES ${values} ON CONFLICT (code) DO NOTHING`,
  );
}

/** Money paid in by card: from the outside world into the user's balance. */
export function creditTopUp(work: Work, userId: number, amount: number, paymentId: string): Promise<PostResult> {
  return post(work, {
    kind: 'TOPUP',
    userId,
    resourceId: paymentId,
    postings: [
      { account: account.externalCard, amount: -amount },
      { account: account.available(userId), amount },
    ],
  });
}

/**
 * An approved donation link (docs/product.md#charity): the amount the user gave to a charity, credited from the
 * outside world (the external-charity account) into the user's balance. The entry names the link; the memo carries
 * the charity's name for the statement.
 */
export function creditCharity(
  work: Work,
  p: { userId: number; amount: number; linkId: number; charityName: string },
): Promise<PostResult> {
  return post(work, {
    kind: 'CHARITY_CREDIT',
    userId: p.userId,
    resourceId: String(p.linkId),
    memo: { charityName: p.charityName },
    postings: [
      { account: account.externalCharity, amount: -p.amount },
      { account: account.available(p.userId), amount: p.amount },
    ],
  });
}

/** The upload price of a new picture: its first purchase. */
export function uploadPicture(
  work: Work,
  p: { userId: number; amount: number; pictureId: number },
): Promise<PostResult> {
  return spend(work, { userId: p.userId, amount: p.amount, kind: 'IMAGE', resourceId: String(p.pictureId) });
}

/** A payment into a picture's fund, by anyone, its author included. */
export function fundPicture(work: Work, p: { userId: number; amount: number; pictureId: number }): Promise<PostResult> {
  return spend(work, { userId: p.userId, amount: p.amount, kind: 'IMAGE', resourceId: String(p.pictureId) });
}

/** Lootbox keys, 100¢ each (docs/product.md#lootboxes); the count goes on the entry for the statement. */
export function buyKeys(work: Work, p: { userId: number; count: number; unitPrice: number }): Promise<PostResult> {
  return spend(work, { userId: p.userId, amount: p.count * p.unitPrice, kind: 'KEY', memo: { keys: p.count } });
}

/** The items a lootbox opening found, minted to its opener: the only place items come from. */
export function mintLoot(
  work: Work,
  p: { userId: number; items: readonly string[]; openingId: number },
): Promise<{ entryId: number }> {
  const counts = new Map<string, number>();
  for (const item of p.items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return postItems(work, {
    kind: 'LOOTBOX',
    userId: p.userId,
    resourceId: String(p.openingId),
    postings: [...counts].flatMap(([itemType, n]) => [
      { userId: null, itemType, quantity: -n },
      { userId: p.userId, itemType, quantity: n },
    ]),
  });
}

/** Unlocking every item's graphs: a spend like any other (half to the cause). */
export function unlockGraphs(work: Work, p: { userId: number; price: number }): Promise<PostResult> {
  return spend(work, { userId: p.userId, amount: p.price, kind: 'GRAPH' });
}

/** A chat message's price (docs/product.md#chat): a spend like any other, its entry naming the message. */
export function sendChatMessage(
  work: Work,
  p: { userId: number; amount: number; messageId: number },
): Promise<PostResult> {
  return spend(work, { userId: p.userId, amount: p.amount, kind: 'CHAT_MESSAGE', resourceId: String(p.messageId) });
}

/** A comment or a reply on a picture (15¢, docs/product.md#comments); the entry names the comment. */
export function postComment(work: Work, p: { userId: number; amount: number; commentId: number }): Promise<PostResult> {
  return spend(work, { userId: p.userId, amount: p.amount, kind: 'COMMENT', resourceId: String(p.commentId) });
}

/** A paid emoji reaction on a comment, at the price the user chose; the entry names the reaction. */
export function reactToComment(
  work: Work,
  p: { userId: number; amount: number; reactionId: number; reactionType: string },
): Promise<PostResult> {
  return spend(work, {
    userId: p.userId,
    amount: p.amount,
    kind: 'REACTION',
    resourceId: String(p.reactionId),
    memo: { reactionType: p.reactionType },
  });
}

/** The picture's author pinning a comment on it (1¢, docs/product.md#comments); the entry names the comment. */
export function pinComment(work: Work, p: { userId: number; amount: number; commentId: number }): Promise<PostResult> {
  return spend(work, { userId: p.userId, amount: p.amount, kind: 'PIN', resourceId: String(p.commentId) });
}

/**
 * A moderator's refund of what an author spent on content that was removed (docs/product.md#moderation): the sum of
 * the author's own entries of `kind` naming `resourceId` (a comment's price, a chat message's, a picture's upload and
 * the author's own payments into it), credited back from the platform's revenue as one REFUND entry naming the
 * decision. The cause's half of those spends stays owed to the cause, so the platform pays the whole refund. Nothing
 * when the author spent nothing on it.
 */
export async function refundSpend(
  work: Work,
  p: {
    userId: number;
    kind: Extract<EntryKind, 'COMMENT' | 'CHAT_MESSAGE' | 'IMAGE'>;
    resourceId: string;
    decisionId: number;
    contentType: string;
    contentId: number;
  },
): Promise<{ amount: number; entryId: number } | null> {
  const [spent] = await sqlRows(
    work.tx,
    sql<{ amount: number }>`SELECT coalesce(-sum(p.amount), 0)::bigint AS amount
        FROM journal_entries e JOIN postings p ON p.entry_id = e.id
        WHERE e.user_id = ${p.userId} AND e.kind = ${p.kind} AND e.resource_id = ${p.resourceId}
          AND p.account_code = ${account.available(p.userId)}`,
  );
  const amount = Number(spent?.amount ?? 0);
  if (amount <= 0) return null;
  const { entryId } = await post(work, {
    kind: 'REFUND',
    userId: p.userId,
    resourceId: String(p.decisionId),
    memo: { contentType: p.contentType, contentId: p.contentId },
    postings: [
      { account: account.revenue, amount: -amount },
      { account: account.available(p.userId), amount },
    ],
  });
  return { amount, entryId };
}

/** A market order: its match, money, units, book, trades and notification events in one call (ledger/market.ts). */
export { marketOrder } from './market';

export interface SpendInput {
  userId: number;
  amount: number;
  kind: EntryKind;
  resourceId?: string | null;
  memo?: unknown;
}

/**
 * The text of a call of the database's `ledger_spend` (migration 0019): the user's available money goes down by
 * `amount`, goodwillShare of it (common/goodwill.ts) to the payable account of the user's cause, the rest to revenue.
 */
function spendCall(input: SpendInput): string {
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0) throw new Error(`bad spend amount ${input.amount}`);
  return (
    `SELECT ledger_spend(${int(input.userId)}, ${int(input.amount)}, ${literal(input.kind)}, ` +
    `${literal(input.resourceId ?? null)}, ${memoText(input.memo)}) AS r`
  );
}

/**
 * A spend on the platform (upload, funding, comment, chat, key, graph) inside the caller's transaction: the user's
 * balance goes down by `amount`, half of it (rounded down) to the goodwill payable of the user's chosen cause and
 * the rest to revenue, in one call of `ledger_spend`. A short balance throws InsufficientFunds and changes nothing.
 * Features call the named command of what they sell, never this directly.
 */
export function spend(work: Work, input: SpendInput): Promise<PostResult> {
  return callIn(work, spendCall(input));
}

/**
 * A spend in a transaction of its own, in one round trip (db/one-call.ts: its BEGIN, the call and its COMMIT travel
 * together): the same call and the same answer as `spend`; the new balance is announced after the commit.
 *
 * One user's spends meet at their balance's row, whose lock is held until the commit's WAL flush, so they commit one
 * flush at a time (docs/decisions.md, "Issue 28: the ledger spend in one round trip"). Here they wait in this
 * process instead: a user's first spend goes at once, and the spends of that user that arrive while it runs go
 * together as the next call, each its own `ledger_spend` in the order they came, one transaction and one flush for
 * them all. Each is still whole or nothing and answered on its own (a short one is refused, the others go on); an
 * error of the database fails the spends of that call.
 */
export function spendAlone(c: OneCaller, input: SpendInput): Promise<PostResult> {
  let call: string;
  try {
    call = spendCall(input);
  } catch (err) {
    return Promise.reject(err);
  }
  return new Promise<PostResult>((resolve, reject) => spendLanes(c, input.userId, { call, resolve, reject }));
}

interface WaitingSpend {
  call: string;
  resolve(result: PostResult): void;
  reject(err: unknown): void;
}

/** One user's spends, at most 64 a call. */
const spendLanes = gatheredLanes<WaitingSpend>(64, async (c, batch) => {
  // Each call is a SELECT of its own; UNION ALL runs them in order, one answer row each.
  const statement = batch.map((w) => w.call).join(' UNION ALL ');
  try {
    const answers = await c.transactCall<{ r: LedgerAnswer }, ({ ok: PostResult } | { err: unknown })[]>(
      statement,
      (rows, events) =>
        batch.map((_, i) => {
          try {
            return { ok: readAnswer(rows[i]?.r, events) };
          } catch (err) {
            return { err };
          }
        }),
    );
    answers.forEach((a, i) => ('ok' in a ? batch[i]!.resolve(a.ok) : batch[i]!.reject(a.err)));
  } catch (err) {
    for (const w of batch) w.reject(err);
  }
});
