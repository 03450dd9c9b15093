import { Type, type Static } from 'typebox';

/*
 * POST /api/auth/* (docs/product.md#accounts). Lengths are checked by the service, which answers with texts a person can
 * act on; the schemas only fix types (the 1 MiB body limit bounds everything else).
 */
export const RegisterBody = Type.Object({
  username: Type.String(),
  password: Type.String(),
  email: Type.String(),
  currentPath: Type.Optional(Type.String()),
});
export type RegisterBody = Static<typeof RegisterBody>;

export const LoginBody = Type.Object({
  username: Type.String(),
  password: Type.String(),
});
export type LoginBody = Static<typeof LoginBody>;

export const NicknameBody = Type.Object({
  nickname: Type.String(),
  currentPath: Type.Optional(Type.String()),
});
export type NicknameBody = Static<typeof NicknameBody>;

export const VerifyEmailBody = Type.Object({
  /**
   * Taken from the link's query string, so it may arrive as text (digits only: "1e400" would be Infinity) or as a
   * whole number; the validator converts neither (no type coercion anywhere).
   */
  userId: Type.Union([
    Type.String({ pattern: '^[0-9]{1,15}$' }),
    Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
  ]),
  secret: Type.String({ minLength: 1, maxLength: 200 }),
});
export type VerifyEmailBody = Static<typeof VerifyEmailBody>;

/** Logout and Google sign-in take nothing in the body (the client sends `{}` or nothing at all). */
export const IgnoredBody = Type.Unknown();
export const BearerHeaders = Type.Object({ authorization: Type.Optional(Type.String()) });

export const SignInAnswer = Type.Object({ hasNickname: Type.Boolean() });
export type SignInAnswer = Static<typeof SignInAnswer>;
