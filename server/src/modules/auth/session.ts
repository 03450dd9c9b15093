import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../context';
import { rows, type Executor } from '../../db/connection';
import { forbidden, unauthorized } from '../../http/errors';

export const SESSION_COOKIE = 'sid';

/** Who is calling, loaded from the session cookie before the handler runs. */
export interface SessionUser {
  id: number;
  username: string | null;
  isAdmin: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
  }
  interface FastifyContextConfig {
    /** Routes that never look at the caller (the health check) skip the session lookup and its database call. */
    skipSession?: boolean;
  }
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export async function createSession(
  ctx: AppContext,
  exec: Executor,
  reply: FastifyReply,
  userId: number,
): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  const now = ctx.now();
  const expires = new Date(now.getTime() + ctx.config.sessionDays * 86_400_000);
  // Each sign-in tidies that user's dead sessions, so the table does not grow with every expired cookie.
  await exec.execute(sql`DELETE FROM sessions WHERE user_id = ${userId} AND expires_at <= ${now}`);
  await exec.execute(
    sql`INSERT INTO sessions (token_hash, user_id, expires_at) VALUES (${hashToken(token)}, ${userId}, ${expires})`,
  );
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.config.publicUrl?.startsWith('https://') ?? false,
    expires,
  });
}

export async function destroySession(ctx: AppContext, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const token = req.cookies[SESSION_COOKIE];
  if (token) {
    const session = hashToken(token);
    await ctx.db.execute(sql`DELETE FROM sessions WHERE token_hash = ${session}`);
    // Sockets opened with this session, on any instance, must not keep hearing the user's private channels.
    if (req.user) await ctx.bus.publish({ ch: 'control', t: 'sessionEnded', m: { session }, userId: req.user.id });
  }
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

/** The user behind a session token, or null when it is unknown or expired. */
export async function userOfToken(ctx: AppContext, token: string | undefined): Promise<SessionUser | null> {
  if (!token) return null;
  const [row] = await rows<{ id: number; username: string | null; is_admin: boolean }>(
    ctx.db,
    sql`SELECT u.id, u.username, u.is_admin FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.token_hash = ${hashToken(token)} AND s.expires_at > ${ctx.now()}`,
  );
  return row ? { id: row.id, username: row.username, isAdmin: row.is_admin } : null;
}

/** Loads `req.user` for every request that carries a session cookie. */
export function registerSessionHook(app: App, ctx: AppContext): void {
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (req) => {
    if (req.routeOptions.config?.skipSession) return;
    req.user = await userOfToken(ctx, req.cookies[SESSION_COOKIE]);
  });
}

export function requireUser(req: FastifyRequest): SessionUser {
  if (!req.user) throw unauthorized();
  return req.user;
}

export function requireAdmin(req: FastifyRequest): SessionUser {
  const user = requireUser(req);
  if (!user.isAdmin) throw forbidden('Administrators only.');
  return user;
}
