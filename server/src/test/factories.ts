import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import { sqlRows, type Columns } from '../db/connection';
import type { users } from '../db/core.tables';
import { creditTopUp, mintLoot, openUserAccounts } from '../ledger/commands';
import type { TestApp, TestClient } from './harness';

let seq = 0;

/** A user straight in the database, with accounts and, if asked, a balance paid in by card. */
export async function makeUser(
  ctx: AppContext,
  opts: { username?: string; balance?: number; isAdmin?: boolean } = {},
): Promise<{ id: number; username: string }> {
  const username = opts.username ?? `user_${process.pid}_${++seq}`;
  const [user] = await sqlRows(
    ctx.db,
    sql<Columns<typeof users, 'id'>>`INSERT INTO users (username, email, badge, is_admin)
        VALUES (${username}, ${`${username}@example.test`}, ${randomBytes(5).toString('hex').toUpperCase()}, ${opts.isAdmin ?? false})
        RETURNING id`,
  );
  const id = user!.id;
  await openUserAccounts(ctx.db, id);
  if (opts.balance) await ctx.transact((work) => creditTopUp(work, id, opts.balance!, `test-${id}`));
  return { id, username };
}

/** A client signed in as `userId` through a session row, without going through a login route. */
export async function signIn(t: TestApp, userId: number, client: TestClient = t.client()): Promise<TestClient> {
  const token = randomBytes(32).toString('base64url');
  const tokenHash = createHash('sha256').update(token).digest('hex');
  const expires = new Date(t.ctx.now().getTime() + 86_400_000);
  await t.ctx.db.execute(
    sql`INSERT INTO sessions (token_hash, user_id, expires_at) VALUES (${tokenHash}, ${userId}, ${expires})`,
  );
  client.cookies.set('sid', token);
  return client;
}

/** Units of an item minted to a user, as if a lootbox had found them (the ledger's only way to make items). */
export async function giveItems(ctx: AppContext, userId: number, itemType: string, count: number): Promise<void> {
  await ctx.transact((work) =>
    mintLoot(work, { userId, items: Array.from({ length: count }, () => itemType), openingId: 0 }),
  );
}
