import type { App, AppContext } from '../../context';
import { tooManyRequests, unauthorized } from '../../http/errors';
import { publicOrigin, tenantOf } from '../../http/tenant';
import {
  BearerHeaders,
  IgnoredBody,
  LoginBody,
  NicknameBody,
  RegisterBody,
  SignInAnswer,
  VerifyEmailBody,
} from '../../../../common/api/auth';
import { FieldErrors, Message, UrlAnswer } from '../../../../common/api/shared';
import { AuthService } from './auth.service';
import { googleSignIn, register, verifyEmail } from './registration.service';
import { bearerToken, googleVerifier, notConfigured } from './google';
import { sameSitePath } from './rules';
import { requireUser } from '../../http/auth';
import { createSession, destroySession } from './session';
import type { CounterStore } from '../limits/limits.service';
import { refuseBlockedWords } from '../moderation/blocked-words.service';

/** POST /api/auth/*: sign-up, sign-in (password or Google), nickname, logout, email verification (docs/product.md#accounts). */
export async function authRoutes(app: App, ctx: AppContext, counters: CounterStore): Promise<void> {
  const auth = new AuthService(ctx, counters);
  const verifyGoogle = googleVerifier(ctx);
  // Per IP (the client address TRUST_PROXY allows), on every call that checks a credential or creates an account;
  // counted in the shared counters that app.ts gives the rate-limit plugin.
  const perIp = {
    rateLimit: {
      max: ctx.config.authRateLimit,
      timeWindow: '1 minute',
      errorResponseBuilder: (_req: unknown, limit: { ttl: number }) => tooManyRequests(limit.ttl),
    },
  };
  const errors = { 400: FieldErrors, 401: Message, 429: Message };

  app.post(
    '/api/auth/register',
    {
      config: { ...perIp, auth: 'public' },
      schema: {
        summary: 'Create an account and sign in',
        operationId: 'register',
        tags: ['auth'],
        body: RegisterBody,
        response: { 200: UrlAnswer, ...errors },
      },
    },
    async (req, reply) => {
      const site = { origin: publicOrigin(req, ctx), tenant: tenantOf(req, ctx) };
      await refuseBlockedWords(ctx, 'username', req.body.username);
      const { userId } = await register(ctx, req.body, site);
      // The account exists: a counter store hiccup must not turn its creation into an error.
      await auth.signedUpFrom(req.body.username, req.ip).catch((err) => req.log.error({ err }, 'sign-up address'));
      await createSession(ctx, ctx.db, reply, userId);
      return { url: sameSitePath(req.body.currentPath) };
    },
  );

  app.post(
    '/api/auth/login/basic',
    {
      config: { ...perIp, auth: 'public' },
      schema: {
        summary: 'Sign in with a username and a password',
        operationId: 'signIn',
        tags: ['auth'],
        body: LoginBody,
        response: { 200: SignInAnswer, ...errors },
      },
    },
    async (req, reply) => {
      const { userId } = await auth.login(req.body.username, req.body.password, req.ip);
      await createSession(ctx, ctx.db, reply, userId);
      return { hasNickname: true };
    },
  );

  app.post(
    '/api/auth/login/google',
    {
      config: { ...perIp, auth: 'public' },
      schema: {
        summary: 'Sign in, or sign up, with a Google ID token',
        operationId: 'signInWithGoogle',
        tags: ['auth'],
        body: IgnoredBody,
        headers: BearerHeaders,
        response: { 200: SignInAnswer, ...errors, 404: Message, 503: Message },
      },
    },
    async (req, reply) => {
      const token = bearerToken(req.headers.authorization);
      if (!ctx.config.google) throw notConfigured(); // before complaining about the token
      if (!token) throw unauthorized();
      const { userId, hasNickname } = await googleSignIn(ctx, await verifyGoogle(token));
      await createSession(ctx, ctx.db, reply, userId);
      return { hasNickname };
    },
  );

  app.post(
    '/api/auth/set-nickname',
    {
      config: { auth: 'member' },
      schema: {
        summary: "Choose the signed-in user's nickname",
        operationId: 'setNickname',
        tags: ['auth'],
        body: NicknameBody,
        response: { 200: UrlAnswer, ...errors },
      },
    },
    async (req) => {
      await refuseBlockedWords(ctx, 'nickname', req.body.nickname);
      await auth.setNickname(requireUser(req), req.body.nickname);
      return { url: sameSitePath(req.body.currentPath) };
    },
  );

  app.post(
    '/api/auth/logout',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'Sign out of this session',
        operationId: 'signOut',
        tags: ['auth'],
        body: IgnoredBody,
        response: { 200: Message },
      },
    },
    async (req, reply) => {
      await destroySession(ctx, req, reply);
      return { message: 'Signed out.' };
    },
  );

  app.post(
    '/api/auth/verify-email',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'Verify an email address with the token a mail carried',
        operationId: 'verifyEmail',
        tags: ['auth'],
        body: VerifyEmailBody,
        response: { 200: Message, 400: FieldErrors },
      },
    },
    async (req) => verifyEmail(ctx, Number(req.body.userId), req.body.secret),
  );
}
