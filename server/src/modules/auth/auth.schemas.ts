import { Type } from 'typebox';
import { Message, FieldErrors as FieldErrorList } from '../../http/schemas';

export { Message, FieldErrorList };

/*
 * Lengths are checked by the service, which answers with texts a person can act on; the schemas only fix types
 * (the 1 MiB body limit bounds everything else).
 */
export const RegisterBody = Type.Object({
  username: Type.String(),
  password: Type.String(),
  email: Type.String(),
  currentPath: Type.Optional(Type.String()),
});

export const LoginBody = Type.Object({
  username: Type.String(),
  password: Type.String(),
});

export const NicknameBody = Type.Object({
  nickname: Type.String(),
  currentPath: Type.Optional(Type.String()),
});

export const VerifyEmailBody = Type.Object({
  /**
   * Taken from the link's query string, so it may arrive as text or as a number (ajv turns a number into text).
   * Not Type.Integer: ajv coerces "1e400" to Infinity and lets it through, and the database then fails.
   */
  userId: Type.String({ pattern: '^[0-9]{1,15}$' }),
  secret: Type.String({ minLength: 1, maxLength: 200 }),
});

/** Logout and Google sign-in take nothing in the body (the client sends `{}` or nothing at all). */
export const IgnoredBody = Type.Unknown();
export const BearerHeaders = Type.Object({ authorization: Type.Optional(Type.String()) });

export const UrlAnswer = Type.Object({ url: Type.String() });
export const SignInAnswer = Type.Object({ hasNickname: Type.Boolean() });
