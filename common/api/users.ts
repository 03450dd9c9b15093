import { Type, type Static } from 'typebox';
import { GOODWILL_TYPES } from '../constants';
import { Digits, Nullable } from './shared';

/** GET /api/user/profile: the signed-in user's own view of their account. */
export const Profile = Type.Object({
  id: Type.Integer(),
  /** Null for a Google user who has not chosen a nickname yet. */
  username: Nullable(Type.String()),
  /** Available money in cents. */
  balance: Type.Integer(),
  keyCount: Type.Integer(),
  lootBoxCount: Type.Integer(),
  profileImageUrl: Nullable(Type.String()),
  badge: Type.String(),
  /** True on the first profile read after sign-up only: the client shows the welcome popup. */
  firstLogin: Type.Boolean(),
  emailVerified: Type.Boolean(),
  isAdmin: Type.Boolean(),
  goodWill: Type.Enum(GOODWILL_TYPES),
  /** Whether the user is suspended now (docs/product.md#suspension): the client shows a banner. */
  suspended: Type.Optional(Type.Boolean()),
  /** When the suspension ends (ISO 8601); null while not suspended, or suspended for good. */
  suspendedUntil: Type.Optional(Nullable(Type.String({ description: 'ISO 8601' }))),
});
export type Profile = Static<typeof Profile>;

/** GET /api/user/user-info/{userId}: what anyone may see of a user. */
export const UserInfo = Type.Object({
  username: Nullable(Type.String()),
  profileImageUrl: Nullable(Type.String()),
});
export type UserInfo = Static<typeof UserInfo>;

export const UserIdParams = Type.Object({ userId: Digits(15, 'user id') });

/** PUT or PATCH /api/user/profile?imageId=: one's own picture becomes one's face. */
export const ProfileImageQuery = Type.Object({ imageId: Digits(15, 'picture id') });
export const ProfileImageAnswer = Type.Object({ profileImageUrl: Type.String() });
export type ProfileImageAnswer = Static<typeof ProfileImageAnswer>;
