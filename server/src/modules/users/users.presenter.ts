import { DEFAULT_GOODWILL, GOODWILL_TYPES, type GoodWillType } from '../../../../common/constants';
import { imageUrl } from '../../storage/storage';
import type { ProfileRow, PublicInfo } from './users.repository';
import type { Profile, UserInfo } from '../../../../common/api/users';

const profileImageUrl = (key: string | null): string | null => (key ? imageUrl(key) : null);

const causeOf = (stored: string | null): GoodWillType =>
  stored && (GOODWILL_TYPES as readonly string[]).includes(stored) ? (stored as GoodWillType) : DEFAULT_GOODWILL;

/** The signed-in user's own view of their account, with their suspension (docs/product.md#suspension). */
export function presentProfile(
  row: ProfileRow,
  firstLogin: boolean,
  suspension: { suspended: boolean; until: Date | null } = { suspended: false, until: null },
): Profile {
  return {
    id: row.id,
    username: row.username,
    balance: row.balance,
    keyCount: row.keyCount,
    lootBoxCount: row.lootBoxCount,
    profileImageUrl: profileImageUrl(row.profileImageKey),
    badge: row.badge,
    firstLogin,
    emailVerified: row.emailVerified,
    isAdmin: row.isAdmin,
    goodWill: causeOf(row.goodWill),
    suspended: suspension.suspended,
    suspendedUntil: suspension.suspended && suspension.until ? suspension.until.toISOString() : null,
  };
}

/** What anyone may see of a user. */
export function presentUserInfo(row: PublicInfo): UserInfo {
  return { username: row.username, profileImageUrl: profileImageUrl(row.profileImageKey) };
}
