import { sql } from 'drizzle-orm';
import { sqlRows, type Executor, type Columns, type SqlRow } from '../../db/connection';
import type { users } from '../../db/core.tables';
import type { pictures } from '../pictures/pictures.tables';

/** The user's own account, under the TypeScript names. */
export type ProfileRow = Pick<
  typeof users.$inferSelect,
  'id' | 'username' | 'keyCount' | 'lootBoxCount' | 'badge' | 'firstLogin' | 'emailVerified' | 'isAdmin' | 'goodWill'
> & {
  /** The available account's balance (0 before the account exists). */
  balance: number;
  /** Storage key of the profile picture's image, if one is set. */
  profileImageKey: SqlRow<typeof pictures>['image_key'] | null;
};

export async function profileOf(exec: Executor, userId: number): Promise<ProfileRow | undefined> {
  const [row] = await sqlRows(
    exec,
    sql<
      Columns<
        typeof users,
        | 'id'
        | 'username'
        | 'key_count'
        | 'loot_box_count'
        | 'badge'
        | 'first_login'
        | 'email_verified'
        | 'is_admin'
        | 'good_will'
      > & { balance: number | null; profile_image_key: SqlRow<typeof pictures>['image_key'] | null }
    >`SELECT u.id, u.username, a.balance, u.key_count, u.loot_box_count, pi.image_key AS profile_image_key, u.badge,
               u.first_login, u.email_verified, u.is_admin, u.good_will
        FROM users u LEFT JOIN ledger_accounts a ON a.user_id = u.id AND a.kind = 'available'
        LEFT JOIN pictures pi ON pi.id = u.profile_image_id AND pi.removed_at IS NULL
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
  const updated = await sqlRows(
    exec,
    sql<
      Columns<typeof users, 'id'>
    >`UPDATE users SET first_login = false WHERE id = ${userId} AND first_login RETURNING id`,
  );
  return updated.length > 0;
}

/** What anyone may see of a user: their name and the storage key of their face. */
export type PublicInfo = Pick<typeof users.$inferSelect, 'username'> & {
  profileImageKey: SqlRow<typeof pictures>['image_key'] | null;
};

export async function publicInfoOf(exec: Executor, userId: number): Promise<PublicInfo | undefined> {
  const [row] = await sqlRows(
    exec,
    sql<
      Columns<typeof users, 'username'> & { profile_image_key: SqlRow<typeof pictures>['image_key'] | null }
    >`SELECT u.username, pi.image_key AS profile_image_key
        FROM users u LEFT JOIN pictures pi ON pi.id = u.profile_image_id AND pi.removed_at IS NULL WHERE u.id = ${userId}`,
  );
  return row && { username: row.username, profileImageKey: row.profile_image_key };
}

export async function setProfileImage(exec: Executor, userId: number, pictureId: number): Promise<void> {
  await exec.execute(sql`UPDATE users SET profile_image_id = ${pictureId} WHERE id = ${userId}`);
}

/** Storage key of the image of a user's profile picture and its variants' widths, or null when they have none. */
export async function profileImageKeyOf(
  exec: Executor,
  userId: number,
): Promise<{ key: string; variantWidths: number[] | null } | null> {
  const [row] = await sqlRows(
    exec,
    sql<Columns<typeof pictures, 'image_key' | 'variant_widths'>>`SELECT pi.image_key, pi.variant_widths
        FROM users u JOIN pictures pi ON pi.id = u.profile_image_id AND pi.removed_at IS NULL WHERE u.id = ${userId}`,
  );
  return row ? { key: row.image_key, variantWidths: row.variant_widths } : null;
}
