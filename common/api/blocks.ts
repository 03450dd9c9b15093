import { Type, type Static } from 'typebox';

/* Blocking a user (docs/product.md#blocks): POST and GET /api/user/blocks, DELETE /api/user/blocks/{userId}. */

export const BlockBody = Type.Object({ userId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });
export type BlockBody = Static<typeof BlockBody>;

export const BlockedUser = Type.Object({
  userId: Type.Integer(),
  username: Type.String(),
  blockedOn: Type.String({ description: 'ISO 8601' }),
});
export type BlockedUser = Static<typeof BlockedUser>;
export const BlockedUsers = Type.Array(BlockedUser);
export type BlockedUsers = Static<typeof BlockedUsers>;
