import type { FastifyRequest, onRequestHookHandler, RouteOptions } from 'fastify';
import { isSuspended, suspensionMessage } from '../../../common/suspension';
import type { App, AppContext } from '../context';
import { requireUser, type SessionUser } from './auth';
import { forbidden, HttpError } from './errors';

/*
 * Authorization, declared at the route edge (docs/ARCHITECTURE.md "server/src/http/"): every route names the rule
 * that guards it in its options, `config: { auth: RULE }`, and the server refuses to start with a route that names
 * none. The rule is one of:
 * - 'public': anybody, signed in or not;
 * - 'user': signed in (401 to a visitor);
 * - 'member': signed in and not suspended (docs/product.md#suspension): 401 to a visitor, 403 `{message,
 *   suspendedUntil}` to a suspended user; every call that spends, writes, trades or submits a charity link;
 * - 'admin': an administrator (401 to a visitor, 403 to everyone else), checked before the input is validated, so
 *   a stranger learns nothing from a 400;
 * - a domain rule from a `<domain>.policy.ts`, `policy.rule(action)` or `policy.atEdge(action, subjectOf)`: signed
 *   in or public as the rule says, then the domain's `can(actor, action, subject)`, here at the edge when the
 *   subject is known from the request alone, or by the service once it has loaded the subject. A domain rule's
 *   base may be 'member' too: the suspension is refused first.
 * The rule's name is the operation's `x-authorization` in /api/openapi.json (http/openapi.ts), a domain rule's base
 * its `x-authorization-base`.
 */

/** Who is calling: a signed-in user (a session's, or a service's caller by id), or null for a visitor. */
export type Actor = { id: number; isAdmin?: boolean } | null;

/** The one admin rule of the whole server (rights granted with `npm run admin -- grant USERNAME`). */
export const isAdmin = (actor: Actor): boolean => actor?.isAdmin === true;

/** A domain's rule as a route declares it. */
export interface DomainRule {
  /** `<domain>.<action>`, as the OpenAPI document names it. */
  readonly name: string;
  /** Who reaches the route at all: 'user' answers 401 to a visitor before anything else, 'member' also refuses a
   * suspended user. */
  readonly base: Base;
  /** The domain's check at the edge, when its subject is known from the request alone. */
  readonly edge?: (req: FastifyRequest, ctx: Pick<AppContext, 'config'>) => void;
}

/** Who reaches a domain rule's route at all. */
export type Base = 'public' | 'user' | 'member';

export type Rule = 'public' | 'user' | 'member' | 'admin' | DomainRule;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The rule that guards the route (required: http/authorization.ts refuses a route without one). */
    auth?: Rule;
  }
}

export const ruleName = (rule: Rule): string => (typeof rule === 'string' ? rule : rule.name);

/** Whether a rule refuses a suspended user (docs/product.md#suspension): 'member', or a domain rule on it. */
export const refusesSuspended = (rule: Rule | undefined): boolean =>
  rule === 'member' || (typeof rule === 'object' && rule.base === 'member');

/** The 403 a suspended user's call answers: `{message, suspendedUntil}` (common/api/moderation.ts `Suspended`). */
export function suspendedError(until: Date | null): HttpError {
  return new HttpError(403, { message: suspensionMessage(until), suspendedUntil: until?.toISOString() ?? null });
}

/** Refuses a suspended user with 403 (docs/product.md#suspension); the suspension ends by itself at its end. */
export function refuseSuspended(user: Pick<SessionUser, 'suspendedUntil' | 'suspendedForGood'>, now: Date): void {
  if (isSuspended(user, now)) throw suspendedError(user.suspendedForGood ? null : user.suspendedUntil);
}

/** The signed-in caller in good standing: 401 for a visitor, 403 for a suspended user. */
export function requireMember(req: FastifyRequest, now: Date): SessionUser {
  const user = requireUser(req);
  refuseSuspended(user, now);
  return user;
}

/** One rule of a domain: whether the actor may do the action to the subject, and what a refusal answers. */
export interface Grant<S> {
  /** 'user' unless said: the route edge refuses visitors with 401 first ('member': and suspended users with 403). */
  base?: Base;
  allow(actor: Actor, subject: S): boolean;
  /** 403 'Not allowed.' unless said (a 404 where even the subject's existence is hidden). */
  refuse?: () => HttpError;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each grant types its own subject
type Grants = Record<string, Grant<any>>;
type SubjectOf<G> = G extends Grant<infer S> ? S : never;

/**
 * A domain's policy, declared as a table of rules (like Outline's `allow(User, "update", Star, isOwner)`):
 * `can(actor, action, subject)` answers, `authorize` throws the rule's refusal, and `rule`/`atEdge` are what a
 * route declares. Validation (400s) is never a policy's: it stays in the route or the service.
 */
export function policy<G extends Grants>(domain: string, grants: G) {
  const can = <A extends keyof G & string>(actor: Actor, action: A, subject: SubjectOf<G[A]>): boolean =>
    grants[action]!.allow(actor, subject);
  const authorize = <A extends keyof G & string>(actor: Actor, action: A, subject: SubjectOf<G[A]>): void => {
    if (!can(actor, action, subject)) throw (grants[action]!.refuse ?? (() => forbidden()))();
  };
  /** The route's declaration of a rule the service checks once it has loaded the subject. */
  const rule = (action: keyof G & string): DomainRule => ({
    name: `${domain}.${action}`,
    base: grants[action]!.base ?? 'user',
  });
  /** The route's declaration of a rule checked at the edge, its subject read from the request. */
  const atEdge = <A extends keyof G & string>(
    action: A,
    subjectOf: (req: FastifyRequest, ctx: Pick<AppContext, 'config'>) => SubjectOf<G[A]>,
  ): DomainRule => ({
    ...rule(action),
    edge: (req, ctx) => authorize(req.user, action, subjectOf(req, ctx)),
  });
  return { can, authorize, rule, atEdge };
}

/**
 * A route whose caller proves itself with a credential other than the session (the metrics token, a payment
 * provider's signature): public at the edge, the handler checks the credential.
 */
export const signedBy = (credential: string): DomainRule => ({ name: `signed-by:${credential}`, base: 'public' });

/** What the guards are given: the config, and the clock (the suspension ends by itself). */
type GuardContext = Pick<AppContext, 'config'> & Partial<Pick<AppContext, 'now'>>;

/**
 * The edge's checks of a rule: `before` the input is validated (an administrator's, and a member's: a stranger or a
 * suspended user learns nothing from a 400), the rest `after` it (preHandler), where the handlers made them before.
 */
function guardsOf(rule: Rule, ctx: GuardContext): { before?: onRequestHookHandler; after?: onRequestHookHandler } {
  const now = () => (ctx.now ? ctx.now() : new Date());
  const member: onRequestHookHandler = async (req) => void requireMember(req, now());
  if (rule === 'public') return {};
  if (rule === 'user') return { after: async (req) => void requireUser(req) };
  if (rule === 'member') return { before: member };
  if (rule === 'admin')
    return {
      before: async (req) => {
        if (!isAdmin(requireUser(req))) throw forbidden('Administrators only.');
      },
    };
  const { base, edge } = rule;
  if (base === 'public' && !edge) return {};
  if (base === 'member') return { before: member, ...(edge ? { after: async (req) => edge(req, ctx) } : {}) };
  return {
    after: async (req) => {
      if (base === 'user') requireUser(req);
      edge?.(req, ctx);
    },
  };
}

/** Set on a scope whose routes are all public (http/authorization.ts `publicScope`). */
const PUBLIC_SCOPE = 'authorizationPublicScope';

/**
 * Registers, in a scope of their own, routes a plugin adds that cannot carry route options (static files, the API
 * docs' pages): each of them is declared 'public' by the scope.
 */
export async function publicScope(app: App, register: (scope: App) => Promise<void>): Promise<void> {
  await app.register(async (scope) => {
    scope.decorate(PUBLIC_SCOPE, true);
    await register(scope as unknown as App);
  });
}

/**
 * Refuses to register a route that declares no rule, and puts each rule's check on its route: an administrator's
 * and a member's before validation (preValidation), every other after it (preHandler), where the handlers made it
 * before. Registered before any route, so it sees them all.
 */
export function registerAuthorization(app: App, ctx: GuardContext): void {
  app.addHook('onRoute', function (this: object, route: RouteOptions) {
    const inPublicScope = (this as Record<string, unknown>)[PUBLIC_SCOPE] === true;
    const rule = route.config?.auth ?? (inPublicScope ? 'public' : undefined);
    if (!rule) throw new Error(`${String(route.method)} ${route.url} declares no authorization rule (config.auth)`);
    if (!route.config?.auth) route.config = { ...route.config, auth: rule };
    const { before, after } = guardsOf(rule, ctx);
    for (const [stage, guard] of [
      ['preValidation', before],
      ['preHandler', after],
    ] as const) {
      if (guard)
        route[stage] = [...([] as onRequestHookHandler[]).concat((route[stage] as never) ?? []), guard] as never;
    }
  });
}
