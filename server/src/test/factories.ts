import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import { rows } from '../db/connection';
import { creditTopUp, openUserAccounts } from '../ledger/commands';

let seq = 0;

/** A user straight in the database, with accounts and, if asked, a balance paid in by card. */
export async function makeUser(
  ctx: AppContext,
  opts: { username?: string; balance?: number; isAdmin?: boolean } = {},
): Promise<{ id: number; username: string }> {
  const username = opts.username ?? `user_${process.pid}_${++seq}`;
  const [user] = await rows<{ id: number }>(
    ctx.db,
    sql`INSERT INTO users (username, email, badge, is_admin)
        VALUES (${username}, ${`${username}@example.test`}, ${randomBytes(5).toString('hex').toUpperCase()}, ${opts.isAdmin ?? false})
        RETURNING id`,
  );
  const id = user!.id;
  await openUserAccounts(ctx.db, id);
  if (opts.balance) await ctx.transact((work) => creditTopUp(work, id, opts.balance!, `test-${id}`));
  return { id, username };
}
