import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '../context';
import { rows, type Executor } from '../db/connection';
import { forbidden, unauthorized } from './errors';

/**
 * Who is calling (docs/product.md#accounts): the session cookie is loaded into `req.user` before any handler runs,
 * and handlers ask for what they need with `requireUser` or `requireAdmin`. Signing in and out is the auth module's.
 */
export const SESSION_COOKIE = 'sid';

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
  }
  interface FastifyContextConfig {
    /** Routes that never look at the caller (the health check) skip the session lookup and its database call. */
    skipSession?: boolean;
  }
}

/** Sessions are stored by the SHA-256 of their token: a leaked table does not leak live sessions. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The user behind a session token, or null when it is unknown or expired. */
export async function userOfToken(ctx: AppContext, token: string | undefined): Promise<SessionUser | null> {
  if (!token) return null;
  return (await sessionUser(ctx.db, hashToken(token), ctx.now())) ?? null;
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

/**
 * Route options for administrators' routes: the check runs before the schema validates the body, query or params,
 * so a stranger gets 401 or 403 and learns nothing from a 400 (only input no route can use, such as a NUL, is
 * refused first, by the app's own preValidation hook).
 */
export const adminFirst = {
  preValidation: async (req: FastifyRequest): Promise<void> => {
    requireAdmin(req);
  },
};

/** A signed-in caller and the session they came with (the live socket closes when that session signs out). */
export interface Identity {
  userId: number;
  /** SHA-256 of the session token. */
  session: string;
}

export function authenticate(req: FastifyRequest): Identity | null {
  const token = req.cookies[SESSION_COOKIE];
  return req.user && token ? { userId: req.user.id, session: hashToken(token) } : null;
}

// The sessions table: read on every request, written when signing in and out (modules/auth/session.ts).

/** A session row's user, as every request sees it. */
export interface SessionUser {
  id: number;
  username: string | null;
  isAdmin: boolean;
}

/** The user of a live session, by the SHA-256 of its token. */
export async function sessionUser(exec: Executor, tokenHash: string, now: Date): Promise<SessionUser | undefined> {
  const [row] = await rows<{ id: number; username: string | null; is_admin: boolean }>(
    exec,
    sql`SELECT u.id, u.username, u.is_admin FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.token_hash = ${tokenHash} AND s.expires_at > ${now}`,
  );
  return row && { id: row.id, username: row.username, isAdmin: row.is_admin };
}

/** Stores a new session; each sign-in also tidies that user's dead sessions, so the table does not grow forever. */
export async function insertSession(
  exec: Executor,
  s: { tokenHash: string; userId: number; expiresAt: Date; now: Date },
): Promise<void> {
  await exec.execute(sql`DELETE FROM sessions WHERE user_id = ${s.userId} AND expires_at <= ${s.now}`);
  await exec.execute(
    sql`INSERT INTO sessions (token_hash, user_id, expires_at) VALUES (${s.tokenHash}, ${s.userId}, ${s.expiresAt})`,
  );
}

/** Which of these sessions (by the SHA-256 of their tokens) exist and have not expired. */
export async function liveSessions(exec: Executor, tokenHashes: string[], now: Date): Promise<Set<string>> {
  if (tokenHashes.length === 0) return new Set();
  // One parameter per hash: drivers differ in how they pass a JavaScript array.
  const list = sql.join(
    tokenHashes.map((h) => sql`${h}`),
    sql`, `,
  );
  const found = await rows<{ token_hash: string }>(
    exec,
    sql`SELECT token_hash FROM sessions WHERE token_hash IN (${list}) AND expires_at > ${now}`,
  );
  return new Set(found.map((r) => r.token_hash));
}

export async function deleteSession(exec: Executor, tokenHash: string): Promise<void> {
  await exec.execute(sql`DELETE FROM sessions WHERE token_hash = ${tokenHash}`);
}
