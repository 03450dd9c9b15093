import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { sqlRows, type Executor, type Columns } from '../../db/connection';
import type { users } from '../../db/core.tables';

/*
 * The account columns that signing up and signing in read and write: usernames, password hashes, Google subjects,
 * email verification. The users module reads the rest of the row (profile, face).
 */

export interface NewUser {
  username: string | null;
  email: string | null;
  emailVerified?: boolean;
  emailSecretHash?: string | null;
  emailSecretExpiresAt?: Date | null;
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
 * Inserts a user with a fresh badge, inside the caller's transaction. A clash on username or Google subject (say,
 * two sign-ups racing) is reported, not thrown, so the transaction stays usable; a clash on the badge (40 random
 * bits) just draws another.
 */
export async function insertUser(tx: Executor, user: NewUser): Promise<InsertResult> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const [row] = await sqlRows(
      tx,
      sql<
        Columns<typeof users, 'id'>
      >`INSERT INTO users (username, email, email_verified, email_secret_hash, email_secret_expires_at, password_hash,
                             google_sub, badge)
          VALUES (${user.username}, ${user.email}, ${user.emailVerified ?? false}, ${user.emailSecretHash ?? null},
                  ${user.emailSecretExpiresAt ?? null}, ${user.passwordHash ?? null}, ${user.googleSub ?? null},
                  ${newBadge()})
          ON CONFLICT DO NOTHING RETURNING id`,
    );
    if (row) return { id: row.id };
    if (user.username !== null && (await usernameTaken(tx, user.username))) return { conflict: 'username' };
    if (user.googleSub && (await userByGoogleSub(tx, user.googleSub))) return { conflict: 'googleSub' };
  }
  throw new Error('could not draw a free badge in 5 attempts');
}

export async function usernameTaken(exec: Executor, username: string): Promise<boolean> {
  const found = await sqlRows(
    exec,
    sql<Columns<typeof users, 'id'>>`SELECT id FROM users WHERE lower(username) = lower(${username})`,
  );
  return found.length > 0;
}

export interface Credentials {
  id: number;
  username: string;
  passwordHash: string | null;
}

export async function credentialsOf(exec: Executor, username: string): Promise<Credentials | undefined> {
  const [row] = await sqlRows(
    exec,
    sql<
      Columns<typeof users, 'id' | 'username' | 'password_hash'>
    >`SELECT id, username, password_hash FROM users WHERE lower(username) = lower(${username})`,
  );
  // Found by its username, so it has one.
  return row && { id: row.id, username: row.username!, passwordHash: row.password_hash };
}

export async function userByGoogleSub(
  exec: Executor,
  sub: string,
): Promise<{ id: number; username: string | null } | undefined> {
  const [row] = await sqlRows(
    exec,
    sql<Columns<typeof users, 'id' | 'username'>>`SELECT id, username FROM users WHERE google_sub = ${sub}`,
  );
  return row;
}

export interface EmailSecret {
  secretHash: string | null;
  /** Null once the link was used. */
  expiresAt: Date | null;
  verified: boolean;
}

export async function emailSecretOf(exec: Executor, userId: number): Promise<EmailSecret | undefined> {
  const [row] = await sqlRows(
    exec,
    sql<
      Columns<typeof users, 'email_secret_hash' | 'email_secret_expires_at' | 'email_verified'>
    >`SELECT email_secret_hash, email_secret_expires_at, email_verified FROM users WHERE id = ${userId}`,
  );
  return (
    row && {
      secretHash: row.email_secret_hash,
      expiresAt: row.email_secret_expires_at === null ? null : new Date(row.email_secret_expires_at),
      verified: row.email_verified,
    }
  );
}

/**
 * Uses the link: marks the address verified and the link spent, only if that link is still the account's, unused
 * and unexpired at `now`. False when another click got there first, or the link ran out meanwhile.
 */
export async function useEmailSecret(exec: Executor, userId: number, secretHash: string, now: Date): Promise<boolean> {
  const updated = await sqlRows(
    exec,
    sql<Columns<typeof users, 'id'>>`UPDATE users SET email_verified = true, email_secret_expires_at = NULL
        WHERE id = ${userId} AND email_secret_hash = ${secretHash} AND email_secret_expires_at > ${now}
        RETURNING id`,
  );
  return updated.length > 0;
}

/** Sets the username of a user who has none yet; false when they already had one. */
export async function setUsernameIfNone(exec: Executor, userId: number, username: string): Promise<boolean> {
  const updated = await sqlRows(
    exec,
    sql<
      Columns<typeof users, 'id'>
    >`UPDATE users SET username = ${username} WHERE id = ${userId} AND username IS NULL RETURNING id`,
  );
  return updated.length > 0;
}
