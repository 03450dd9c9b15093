import { Type } from 'typebox';
import { GOODWILL_TYPES } from '../../../../common/constants';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

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
});

export const UserInfo = Type.Object({
  username: Nullable(Type.String()),
  profileImageUrl: Nullable(Type.String()),
});

export const UserIdParams = Type.Object({ userId: Type.String({ pattern: '^[0-9]{1,15}$' }) });
