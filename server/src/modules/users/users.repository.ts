import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../db/connection';
import { openUserAccounts } from '../../ledger/commands';

export interface NewUser {
  username: string | null;
  email: string | null;
  emailVerified?: boolean;
  emailSecretHash?: string | null;
  passwordHash?: string | null;
  googleSub?: string | null;
}

// No 0/O or 1/I: the badge is read aloud and typed into donation forms.
const BADGE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const BADGE_LENGTH = 8;

export function newBadge(): string {
  let code = '';
  for (let i = 0; i < BADGE_LENGTH; i++) code += BADGE_ALPHABET[randomInt(BADGE_ALPHABET.length)];
  return code;
}

export type InsertResult = { id: number } | { conflict: 'username' | 'googleSub' };

/**
 * Inserts a user with a fresh badge and opens their ledger accounts, inside the caller's transaction. A clash on
 * username or Google subject (say, two sign-ups racing) is reported, not thrown, so the transaction stays usable;
 * a clash on the badge (40 random bits) just draws another.
 */
export async function insertUser(tx: Executor, user: NewUser): Promise<InsertResult> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const [row] = await rows<{ id: number }>(
      tx,
      sql`INSERT INTO users (username, email, email_verified, email_secret_hash, password_hash, google_sub, badge)
          VALUES (${user.username}, ${user.email}, ${user.emailVerified ?? false}, ${user.emailSecretHash ?? null},
                  ${user.passwordHash ?? null}, ${user.googleSub ?? null}, ${newBadge()})
          ON CONFLICT DO NOTHING RETURNING id`,
    );
    if (row) {
      await openUserAccounts(tx, row.id);
      return { id: row.id };
    }
    if (user.username !== null && (await usernameTaken(tx, user.username))) return { conflict: 'username' };
    if (user.googleSub && (await userByGoogleSub(tx, user.googleSub))) return { conflict: 'googleSub' };
  }
  throw new Error('could not draw a free badge in 5 attempts');
}

export async function usernameTaken(exec: Executor, username: string): Promise<boolean> {
  const found = await rows<{ id: number }>(exec, sql`SELECT id FROM users WHERE lower(username) = lower(${username})`);
  return found.length > 0;
}

export interface Credentials {
  id: number;
  username: string;
  passwordHash: string | null;
}

export async function credentialsOf(exec: Executor, username: string): Promise<Credentials | undefined> {
  const [row] = await rows<{ id: number; username: string; password_hash: string | null }>(
    exec,
    sql`SELECT id, username, password_hash FROM users WHERE lower(username) = lower(${username})`,
  );
  return row && { id: row.id, username: row.username, passwordHash: row.password_hash };
}

export async function userByGoogleSub(
  exec: Executor,
  sub: string,
): Promise<{ id: number; username: string | null } | undefined> {
  const [row] = await rows<{ id: number; username: string | null }>(
    exec,
    sql`SELECT id, username FROM users WHERE google_sub = ${sub}`,
  );
  return row;
}

export async function emailSecretOf(
  exec: Executor,
  userId: number,
): Promise<{ secretHash: string | null; verified: boolean } | undefined> {
  const [row] = await rows<{ email_secret_hash: string | null; email_verified: boolean }>(
    exec,
    sql`SELECT email_secret_hash, email_verified FROM users WHERE id = ${userId}`,
  );
  return row && { secretHash: row.email_secret_hash, verified: row.email_verified };
}

export async function markEmailVerified(exec: Executor, userId: number): Promise<void> {
  await exec.execute(sql`UPDATE users SET email_verified = true WHERE id = ${userId}`);
}

/** Sets the username of a user who has none yet; false when they already had one. */
export async function setUsernameIfNone(exec: Executor, userId: number, username: string): Promise<boolean> {
  const updated = await rows<{ id: number }>(
    exec,
    sql`UPDATE users SET username = ${username} WHERE id = ${userId} AND username IS NULL RETURNING id`,
  );
  return updated.length > 0;
}

export interface ProfileRow {
  id: number;
  username: string | null;
  balance: number;
  keyCount: number;
  lootBoxCount: number;
  /** Storage key of the profile picture's image, if one is set. */
  profileImageKey: string | null;
  badge: string;
  firstLogin: boolean;
  emailVerified: boolean;
  isAdmin: boolean;
  goodWill: string | null;
}

export async function profileOf(exec: Executor, userId: number): Promise<ProfileRow | undefined> {
  const [row] = await rows<{
    id: number;
    username: string | null;
    balance: number | null;
    key_count: number;
    loot_box_count: number;
    profile_image_key: string | null;
    badge: string;
    first_login: boolean;
    email_verified: boolean;
    is_admin: boolean;
    good_will: string | null;
  }>(
    exec,
    sql`SELECT u.id, u.username, a.balance, u.key_count, u.loot_box_count, pi.image_key AS profile_image_key, u.badge,
               u.first_login, u.email_verified, u.is_admin, u.good_will
        FROM users u LEFT JOIN ledger_accounts a ON a.user_id = u.id AND a.kind = 'available'
        LEFT JOIN pictures pi ON pi.id = u.profile_image_id
        WHERE u.id = ${userId}`,
  );
  if (!row) return undefined;
  return {
    id: row.id,
    username: row.username,
    balance: row.balance ?? 0,
    keyCount: row.key_count,
    lootBoxCount: row.loot_box_count,
    profileImageKey: row.profile_image_key,
    badge: row.badge,
    firstLogin: row.first_login,
    emailVerified: row.email_verified,
    isAdmin: row.is_admin,
    goodWill: row.good_will,
  };
}

/** Clears the first-login flag; true only for the one call that actually cleared it. */
export async function clearFirstLogin(exec: Executor, userId: number): Promise<boolean> {
  const updated = await rows<{ id: number }>(
    exec,
    sql`UPDATE users SET first_login = false WHERE id = ${userId} AND first_login RETURNING id`,
  );
  return updated.length > 0;
}

export async function publicInfoOf(
  exec: Executor,
  userId: number,
): Promise<{ username: string | null; profileImageKey: string | null } | undefined> {
  const [row] = await rows<{ username: string | null; profile_image_key: string | null }>(
    exec,
    sql`SELECT u.username, pi.image_key AS profile_image_key
        FROM users u LEFT JOIN pictures pi ON pi.id = u.profile_image_id WHERE u.id = ${userId}`,
  );
  return row && { username: row.username, profileImageKey: row.profile_image_key };
}
