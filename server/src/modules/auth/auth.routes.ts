import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../context';
import { tooManyRequests, unauthorized } from '../../http/errors';
import {
  BearerHeaders,
  FieldErrorList,
  IgnoredBody,
  LoginBody,
  Message,
  NicknameBody,
  RegisterBody,
  SignInAnswer,
  UrlAnswer,
  VerifyEmailBody,
} from './auth.schemas';
import { AuthService } from './auth.service';
import { bearerToken, googleVerifier, notConfigured } from './google';
import { sameSitePath } from './rules';
import { createSession, destroySession, requireUser } from './session';

/** POST /api/auth/*: sign-up, sign-in (password or Google), nickname, logout, email verification (SPEC §7). */
export async function authRoutes(app: App, ctx: AppContext): Promise<void> {
  const auth = new AuthService(ctx);
  const verifyGoogle = googleVerifier(ctx);
  // Per IP, on every call that checks a credential or creates an account.
  const perIp = {
    rateLimit: { max: ctx.config.authRateLimit, timeWindow: '1 minute', errorResponseBuilder: () => tooManyRequests() },
  };
  const errors = { 400: FieldErrorList, 401: Message, 429: Message };

  app.post(
    '/api/auth/register',
    { config: perIp, schema: { body: RegisterBody, response: { 200: UrlAnswer, ...errors } } },
    async (req, reply) => {
      const { userId } = await auth.register(req.body, siteUrl(ctx, req));
      await createSession(ctx, ctx.db, reply, userId);
      return { url: sameSitePath(req.body.currentPath) };
    },
  );

  app.post(
    '/api/auth/login/basic',
    { config: perIp, schema: { body: LoginBody, response: { 200: SignInAnswer, ...errors } } },
    async (req, reply) => {
      const { userId } = await auth.login(req.body.username, req.body.password);
      await createSession(ctx, ctx.db, reply, userId);
      return { hasNickname: true };
    },
  );

  app.post(
    '/api/auth/login/google',
    {
      config: perIp,
      schema: {
        body: IgnoredBody,
        headers: BearerHeaders,
        response: { 200: SignInAnswer, ...errors, 404: Message, 503: Message },
      },
    },
    async (req, reply) => {
      const token = bearerToken(req.headers.authorization);
      if (!ctx.config.google) throw notConfigured(); // before complaining about the token
      if (!token) throw unauthorized();
      const { userId, hasNickname } = await auth.googleSignIn(await verifyGoogle(token));
      await createSession(ctx, ctx.db, reply, userId);
      return { hasNickname };
    },
  );

  app.post(
    '/api/auth/set-nickname',
    { schema: { body: NicknameBody, response: { 200: UrlAnswer, ...errors } } },
    async (req) => {
      await auth.setNickname(requireUser(req), req.body.nickname);
      return { url: sameSitePath(req.body.currentPath) };
    },
  );

  app.post('/api/auth/logout', { schema: { body: IgnoredBody, response: { 200: Message } } }, async (req, reply) => {
    await destroySession(ctx, req, reply);
    return { message: 'Signed out.' };
  });

  app.post(
    '/api/auth/verify-email',
    { schema: { body: VerifyEmailBody, response: { 200: Message, 400: FieldErrorList } } },
    async (req) => auth.verifyEmail(Number(req.body.userId), req.body.secret),
  );
}

/** The base of links in mails: PUBLIC_URL when the operator set it, else the site the browser is on. */
function siteUrl(ctx: AppContext, req: FastifyRequest): string {
  return ctx.config.publicUrl ?? `${req.protocol}://${req.host}`;
}
