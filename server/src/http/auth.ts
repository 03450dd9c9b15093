import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '../context';
import { sqlRows, type Executor, type Columns } from '../db/connection';
import type { sessions } from '../db/core.tables';
import { unauthorized } from './errors';

/**
 * Who is calling (docs/product.md#accounts): the session cookie is loaded into `req.user` before any handler runs.
 * What a route lets through is its declared rule's (http/authorization.ts); a handler behind a signed-in rule takes
 * its caller with `requireUser`. Signing in and out is the auth module's.
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
  // The primary, or the replica while only it answers (the site stays readable: docs/scaling.md, "Read replica").
  return (await sessionUser(ctx.reads.current(), hashToken(token), ctx.now())) ?? null;
}

/** Loads `req.user` for every request that carries a session cookie. */
export function registerSessionHook(app: App, ctx: AppContext): void {
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (req) => {
    if (req.routeOptions.config?.skipSession) return;
    req.user = await userOfToken(ctx, req.cookies[SESSION_COOKIE]);
  });
}

/** The signed-in caller (401 for a visitor: the route's rule has already refused one where it asks for a user). */
export function requireUser(req: FastifyRequest): SessionUser {
  if (!req.user) throw unauthorized();
  return req.user;
}

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
  /** The user's suspension (docs/product.md#suspension), read with the session: the 'member' rule needs no query. */
  suspendedUntil: Date | null;
  suspendedForGood: boolean;
}

/** The user of a live session, by the SHA-256 of its token. */
export async function sessionUser(exec: Executor, tokenHash: string, now: Date): Promise<SessionUser | undefined> {
  const [row] = await sqlRows(
    exec,
    sql<{
      id: number;
      username: string | null;
      is_admin: boolean;
      suspended_until: Date | string | null;
      suspended_for_good: boolean;
    }>`SELECT u.id, u.username, u.is_admin, u.suspended_until, u.suspended_for_good
        FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.token_hash = ${tokenHash} AND s.expires_at > ${now}`,
  );
  return (
    row && {
      id: row.id,
      username: row.username,
      isAdmin: row.is_admin,
      suspendedUntil: row.suspended_until === null ? null : new Date(row.suspended_until),
      suspendedForGood: row.suspended_for_good,
    }
  );
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
  const found = await sqlRows(
    exec,
    sql<
      Columns<typeof sessions, 'token_hash'>
    >`SELECT token_hash FROM sessions WHERE token_hash IN (${list}) AND expires_at > ${now}`,
  );
  return new Set(found.map((r) => r.token_hash));
}

export async function deleteSession(exec: Executor, tokenHash: string): Promise<void> {
  await exec.execute(sql`DELETE FROM sessions WHERE token_hash = ${tokenHash}`);
}
