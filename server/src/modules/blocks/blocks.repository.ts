import { sql } from 'drizzle-orm';
import { sqlRows, type Columns, type Executor } from '../../db/connection';
import type { users } from '../../db/core.tables';
import type { userBlocks } from './blocks.tables';

/** All of the blocks' SQL (docs/product.md#blocks), taking the db or the transaction of a command. */

/** Blocks `blockedId` for `blockerId`; once per pair (a second block keeps the first one's date). */
export async function insertBlock(exec: Executor, blockerId: number, blockedId: number, at: Date): Promise<void> {
  await exec.execute(
    sql`INSERT INTO user_blocks (blocker_id, blocked_id, created_at) VALUES (${blockerId}, ${blockedId}, ${at})
        ON CONFLICT (blocker_id, blocked_id) DO NOTHING`,
  );
}

export async function deleteBlock(exec: Executor, blockerId: number, blockedId: number): Promise<void> {
  await exec.execute(sql`DELETE FROM user_blocks WHERE blocker_id = ${blockerId} AND blocked_id = ${blockedId}`);
}

export type BlockedRow = Columns<typeof userBlocks, 'blocked_id' | 'created_at'> & {
  /** coalesce(username, ''): never null. */
  username: NonNullable<Columns<typeof users, 'username'>['username']>;
};

/** Whom the user blocked, the latest first. */
export function blockedBy(exec: Executor, blockerId: number): Promise<BlockedRow[]> {
  return sqlRows(
    exec,
    sql<BlockedRow>`SELECT b.blocked_id, b.created_at, coalesce(u.username, '') AS username
        FROM user_blocks b JOIN users u ON u.id = b.blocked_id
        WHERE b.blocker_id = ${blockerId} ORDER BY b.created_at DESC, b.blocked_id DESC`,
  );
}

/** Who blocked any of these users: one walk of the index on blocked_id. */
export function blockersOf(
  exec: Executor,
  blockedIds: readonly number[],
): Promise<Columns<typeof userBlocks, 'blocker_id' | 'blocked_id'>[]> {
  if (blockedIds.length === 0) return Promise.resolve([]);
  const list = sql.join(
    blockedIds.map((id) => sql`${id}::bigint`),
    sql`, `,
  );
  return sqlRows(
    exec,
    sql<
      Columns<typeof userBlocks, 'blocker_id' | 'blocked_id'>
    >`SELECT blocker_id, blocked_id FROM user_blocks WHERE blocked_id IN (${list})`,
  );
}

export async function isBlocked(exec: Executor, blockerId: number, blockedId: number): Promise<boolean> {
  const found = await sqlRows(
    exec,
    sql<
      Columns<typeof userBlocks, 'blocker_id'>
    >`SELECT blocker_id FROM user_blocks WHERE blocker_id = ${blockerId} AND blocked_id = ${blockedId}`,
  );
  return found.length > 0;
}

export async function userExists(exec: Executor, id: number): Promise<boolean> {
  const found = await sqlRows(exec, sql<Columns<typeof users, 'id'>>`SELECT id FROM users WHERE id = ${id}`);
  return found.length > 0;
}
