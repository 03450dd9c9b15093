import { sql, type SQL } from 'drizzle-orm';
import { isItemType } from '../../../common/items';
import { sqlRows, type Columns } from '../db/connection';
import type { inventories, journalEntries } from '../db/core.tables';
import type { Work } from '../db/unit-of-work';
import { LedgerError, type EntryKind } from './ledger';

/**
 * Items move like money: one journal entry, postings summing to zero per item, inventories updated in a fixed order
 * with guarded updates. A posting without a user is the mint.
 */
export interface ItemPosting {
  /** The owner, or null for the mint. */
  userId: number | null;
  itemType: string;
  /** Units; positive gives them to the owner, negative takes them. */
  quantity: number;
}

export interface ItemEntryInput {
  kind: EntryKind;
  /** Whose entry it is (the statement it shows on). */
  userId: number | null;
  resourceId?: string | null;
  memo?: unknown;
  postings: ItemPosting[];
}

/** Units a user does not have free (owned and not held by their sell offer): nothing changed. */
export class InsufficientItems extends Error {
  constructor(
    readonly userId: number,
    readonly itemType: string,
  ) {
    super(`user ${userId} has too few free ${itemType}`);
  }
}

const ownerKey = (p: { userId: number | null; itemType: string }) => `${p.userId ?? 'mint'}|${p.itemType}`;

/** Checks an item entry and nets it per user and item; refuses anything that does not balance per item. */
export function netItemPostings(postings: ItemPosting[]): ItemPosting[] {
  if (postings.length < 2) throw new LedgerError('an item entry needs at least two postings');
  const perItem = new Map<string, number>();
  const perOwner = new Map<string, ItemPosting>();
  for (const p of postings) {
    if (!Number.isSafeInteger(p.quantity) || p.quantity === 0) throw new LedgerError(`bad quantity ${p.quantity}`);
    if (!isItemType(p.itemType)) throw new LedgerError(`unknown item ${p.itemType}`);
    perItem.set(p.itemType, (perItem.get(p.itemType) ?? 0) + p.quantity);
    const key = ownerKey(p);
    const seen = perOwner.get(key);
    perOwner.set(key, { ...p, quantity: (seen?.quantity ?? 0) + p.quantity });
  }
  for (const [item, total] of perItem) if (total !== 0) throw new LedgerError(`${item} postings sum to ${total}`);
  return [...perOwner.values()].filter((p) => p.quantity !== 0);
}

/**
 * Writes one item entry in the caller's transaction (or adds its postings to `entryId`, for a trade whose money
 * moved in the same entry). Inventories change in (user, item) order, the fixed lock order; a take is guarded by
 * the free units, so nobody ever goes below what they own or gives away what their sell offer holds.
 */
export async function postItems(work: Work, input: ItemEntryInput, entryId?: number): Promise<{ entryId: number }> {
  const net = netItemPostings(input.postings)
    .filter((p): p is ItemPosting & { userId: number } => p.userId !== null)
    .sort((a, b) => (a.userId === b.userId ? a.itemType.localeCompare(b.itemType) : a.userId - b.userId));
  // Runs of gains become one statement (a lootbox's five items: one round trip); a take stays a guarded update of
  // its own. Either way the rows are locked in the order above.
  for (let i = 0; i < net.length;) {
    const p = net[i]!;
    if (p.quantity < 0) {
      const taken = await sqlRows(
        work.tx,
        sql<Columns<typeof inventories, 'quantity'>>`UPDATE inventories SET quantity = quantity + ${p.quantity}
            WHERE user_id = ${p.userId} AND item_type = ${p.itemType} AND quantity - held >= ${-p.quantity}
            RETURNING quantity`,
      );
      if (taken.length === 0) throw new InsufficientItems(p.userId, p.itemType);
      i++;
      continue;
    }
    let end = i;
    while (end < net.length && net[end]!.quantity > 0) end++;
    const gains = sql.join(
      net.slice(i, end).map((g) => sql`(${g.userId}::bigint, ${g.itemType}, ${g.quantity}::int)`),
      sql`, `,
    );
    await work.tx.execute(
      sql`INSERT INTO inventories (user_id, item_type, quantity) VALUES ${gains}
          ON CONFLICT (user_id, item_type) DO UPDATE SET quantity = inventories.quantity + excluded.quantity`,
    );
    i = end;
  }
  const postings = (entry: SQL) =>
    sql.join(
      input.postings.map((p) => sql`(${entry}, ${p.userId}::bigint, ${p.itemType}, ${p.quantity}::int)`),
      sql`, `,
    );
  if (entryId !== undefined) {
    await work.tx.execute(
      sql`INSERT INTO item_postings (entry_id, user_id, item_type, quantity) VALUES ${postings(sql`${entryId}::bigint`)}`,
    );
    return { entryId };
  }
  // The entry and its postings in one statement.
  const [row] = await sqlRows(
    work.tx,
    sql<Columns<typeof journalEntries, 'id'>>`WITH e AS (INSERT INTO journal_entries (kind, user_id, resource_id, memo)
          VALUES (${input.kind}, ${input.userId}::bigint, ${input.resourceId ?? null},
                  ${input.memo === undefined ? null : JSON.stringify(input.memo)}::jsonb)
          RETURNING id),
        p AS (INSERT INTO item_postings (entry_id, user_id, item_type, quantity)
          SELECT e.id, v.user_id, v.item_type, v.quantity
          FROM e, (VALUES ${postings(sql`NULL::bigint`)}) AS v(entry_id, user_id, item_type, quantity) RETURNING 1)
        SELECT id FROM e`,
  );
  return { entryId: row!.id };
}
