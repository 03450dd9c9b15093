import { sql, type SQL } from 'drizzle-orm';
import { sqlRows, type Columns, type Executor, type SqlRow } from '../../db/connection';
import type { users } from '../../db/core.tables';
import type { charityLinks, charityOptions } from './charity.tables';

/** All of the donation links' SQL, taking the db or the transaction of a command. */

export type OptionKind = 'CATEGORY' | 'NAME' | 'REJECTION_REASON';

export type LinkRow = Columns<
  typeof charityLinks,
  | 'id'
  | 'sender_id'
  | 'link'
  | 'badge'
  | 'created_at'
  | 'decided'
  | 'approved'
  | 'amount'
  | 'charity_name'
  | 'admin_category'
  | 'rejection_reason'
  | 'publicly_visible'
> & { sender_name: SqlRow<typeof users>['username'] };

const COLUMNS = sql`l.id, l.sender_id, u.username AS sender_name, l.link, l.badge, l.created_at, l.decided, l.approved,
  l.amount, l.charity_name, l.admin_category, l.rejection_reason, l.publicly_visible`;

/**
 * Locks the sender's user row for the rest of the transaction (FOR NO KEY UPDATE: foreign keys pointing at the user
 * still go through), so two sends of one user count their pending links one after the other. Answers the badge.
 */
export async function lockSender(exec: Executor, userId: number): Promise<{ badge: string } | undefined> {
  const [row] = await sqlRows(
    exec,
    sql<Columns<typeof users, 'badge'>>`SELECT badge FROM users WHERE id = ${userId} FOR NO KEY UPDATE`,
  );
  return row;
}

export async function pendingCount(exec: Executor, userId: number): Promise<number> {
  const [row] = await sqlRows(
    exec,
    sql<{ n: number }>`SELECT count(*)::int AS n FROM charity_links WHERE sender_id = ${userId} AND NOT decided`,
  );
  return row!.n;
}

/**
 * Stores a new pending link under its key; answers its id, or undefined when a pending or approved link already has
 * that key (the unique index `charity_links_link_key`: a concurrent send of the same link waits, then finds it).
 */
export async function insertLink(
  exec: Executor,
  l: { senderId: number; link: string; key: string; badge: string; now: Date },
): Promise<number | undefined> {
  const [row] = await sqlRows(
    exec,
    sql<Columns<typeof charityLinks, 'id'>>`INSERT INTO charity_links (sender_id, link, link_key, badge, created_at)
        VALUES (${l.senderId}, ${l.link}, ${l.key}, ${l.badge}, ${l.now})
        ON CONFLICT (link_key) WHERE approved OR NOT decided DO NOTHING RETURNING id`,
  );
  return row?.id;
}

/** Another pending or approved link with this key, if there is one. */
export async function linkWithKey(exec: Executor, key: string, exceptId: number): Promise<number | undefined> {
  const [row] = await sqlRows(
    exec,
    sql<
      Columns<typeof charityLinks, 'id'>
    >`SELECT id FROM charity_links WHERE link_key = ${key} AND id <> ${exceptId} AND (approved OR NOT decided)`,
  );
  return row?.id;
}

/**
 * Gives a link the key of the app's rule (a link stored before it was keyed by migration 0011's rendering of it).
 * False when another pending or approved link took that key meanwhile (unique_violation).
 */
export async function setLinkKey(exec: Executor, id: number, key: string): Promise<boolean> {
  try {
    await exec.execute(sql`UPDATE charity_links SET link_key = ${key} WHERE id = ${id}`);
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

/** PostgreSQL's unique_violation, wherever the driver wrapped it. */
function isUniqueViolation(err: unknown): boolean {
  for (let e = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

export async function linkById(exec: Executor, id: number): Promise<LinkRow | undefined> {
  const [row] = await sqlRows(
    exec,
    sql<LinkRow>`SELECT ${COLUMNS} FROM charity_links l JOIN users u ON u.id = l.sender_id WHERE l.id = ${id}`,
  );
  return row;
}

/** The link's row, locked until the transaction ends: one decision at a time, so a link is decided once. */
export async function lockLink(
  exec: Executor,
  id: number,
): Promise<{ id: number; sender_id: number; link: string; decided: boolean; approved: boolean } | undefined> {
  const [row] = await sqlRows(
    exec,
    sql<
      Columns<typeof charityLinks, 'id' | 'sender_id' | 'link' | 'decided' | 'approved'>
    >`SELECT id, sender_id, link, decided, approved FROM charity_links WHERE id = ${id} FOR UPDATE`,
  );
  return row;
}

export interface Decision {
  id: number;
  approved: boolean;
  amount: number | null;
  charityName: string;
  adminCategory: string;
  rejectionReason: string | null;
  publiclyVisible: boolean;
  decidedBy: number;
  now: Date;
}

/** Writes the decision on a pending link (the caller holds its lock and checked it is pending). */
export async function decide(exec: Executor, d: Decision): Promise<void> {
  await exec.execute(
    sql`UPDATE charity_links SET decided = true, approved = ${d.approved}, amount = ${d.amount}::bigint,
          charity_name = ${d.charityName}, admin_category = ${d.adminCategory},
          rejection_reason = ${d.rejectionReason}, publicly_visible = ${d.publiclyVisible},
          decided_by = ${d.decidedBy}, decided_at = ${d.now}
        WHERE id = ${d.id} AND NOT decided`,
  );
}

export interface ListQuery {
  /** Only this sender's links. */
  senderId?: number;
  /** Only decided, publicly visible links. */
  publicOnly?: boolean;
  beforeId?: number;
  limit: number;
}

/** Links newest first (ids grow with time), one page. */
export function listLinks(exec: Executor, q: ListQuery): Promise<LinkRow[]> {
  const filters: SQL[] = [sql`true`];
  if (q.senderId !== undefined) filters.push(sql`l.sender_id = ${q.senderId}`);
  if (q.publicOnly) filters.push(sql`l.decided AND l.publicly_visible`);
  if (q.beforeId !== undefined) filters.push(sql`l.id < ${q.beforeId}`);
  return sqlRows(
    exec,
    sql<LinkRow>`SELECT ${COLUMNS} FROM charity_links l JOIN users u ON u.id = l.sender_id
        WHERE ${sql.join(filters, sql` AND `)}
        ORDER BY l.id DESC LIMIT ${q.limit}`,
  );
}

/** One option list, in a stable order (alphabetical, case-insensitive). */
export async function options(exec: Executor, kind: OptionKind): Promise<string[]> {
  const found = await sqlRows(
    exec,
    sql<
      Columns<typeof charityOptions, 'value'>
    >`SELECT value FROM charity_options WHERE kind = ${kind} ORDER BY lower(value), value`,
  );
  return found.map((r) => r.value);
}

/**
 * Adds values to the option lists unless present, ignoring case (what an admin typed becomes an option; 'red cross'
 * does not sit beside 'Red Cross').
 */
export async function addOptions(exec: Executor, values: { kind: OptionKind; value: string }[]): Promise<void> {
  for (const v of values) {
    await exec.execute(
      sql`INSERT INTO charity_options (kind, value)
          SELECT ${v.kind}, ${v.value}
          WHERE NOT EXISTS (SELECT 1 FROM charity_options WHERE kind = ${v.kind} AND lower(value) = lower(${v.value}))
          ON CONFLICT DO NOTHING`,
    );
  }
}
