import { sql } from 'drizzle-orm';
import { sqlRows, type Executor, type Columns } from '../db/connection';
import type { users } from '../db/core.tables';

/**
 * Grants or revokes administrator rights by username (case-insensitive, as usernames are unique that way).
 * Answers the stored username, or undefined when nobody has that name.
 */
export async function setAdmin(exec: Executor, username: string, isAdmin: boolean): Promise<string | undefined> {
  const [row] = await sqlRows(
    exec,
    sql<
      Columns<typeof users, 'username'>
    >`UPDATE users SET is_admin = ${isAdmin} WHERE lower(username) = lower(${username}) RETURNING username`,
  );
  return row?.username ?? undefined;
}
