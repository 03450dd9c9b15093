import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import type { Executor } from '../../db/connection';
import { audience } from '../../db/unit-of-work';
import { deleteSession, hashToken, insertSession, SESSION_COOKIE } from '../../http/auth';

/** Signs a user in: a new session row and its httpOnly cookie. */
export async function createSession(
  ctx: AppContext,
  exec: Executor,
  reply: FastifyReply,
  userId: number,
): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  const now = ctx.now();
  const expires = new Date(now.getTime() + ctx.config.sessionDays * 86_400_000);
  await insertSession(exec, { tokenHash: hashToken(token), userId, expiresAt: expires, now });
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    // Secure behind HTTPS: the request came over TLS, or through a trusted proxy that says so (X-Forwarded-Proto,
    // honoured only with TRUST_PROXY), or the site's public URL is https.
    secure: reply.request.protocol === 'https' || (ctx.config.publicUrl?.startsWith('https://') ?? false),
    expires,
  });
}

export async function destroySession(ctx: AppContext, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const token = req.cookies[SESSION_COOKIE];
  if (token) {
    const session = hashToken(token);
    const user = req.user;
    // Sockets opened with this session, on any instance, must not keep hearing the user's private channels. The
    // notice leaves after the commit without being waited on, so signing out never waits on Redis: a lost notice is
    // made good by the resync after Redis returns (live/hub.ts).
    await ctx.transact(async (work) => {
      await deleteSession(work.tx, session);
      if (user) work.emit('control', 'sessionEnded', { session }, audience.session(user.id, session));
    });
  }
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}
