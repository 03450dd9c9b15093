import type { FastifyRequest, onRequestHookHandler, RouteOptions } from 'fastify';
import type { App, AppContext } from '../context';
import { requireUser } from './auth';
import { forbidden, type HttpError } from './errors';

/*
 * Authorization, declared at the route edge (docs/ARCHITECTURE.md "server/src/http/"): every route names the rule
 * that guards it in its options, `config: { auth: RULE }`, and the server refuses to start with a route that names
 * none. The rule is one of:
 * - 'public': anybody, signed in or not;
 * - 'user': signed in (401 to a visitor);
 * - 'admin': an administrator (401 to a visitor, 403 to everyone else), checked before the input is validated, so
 *   a stranger learns nothing from a 400;
 * - a domain rule from a `<domain>.policy.ts`, `policy.rule(action)` or `policy.atEdge(action, subjectOf)`: signed
 *   in or public as the rule says, then the domain's `can(actor, action, subject)`, here at the edge when the
 *   subject is known from the request alone, or by the service once it has loaded the subject.
 * The rule's name is the operation's `x-authorization` in /api/openapi.json (http/openapi.ts).
 */

/** Who is calling: a signed-in user (a session's, or a service's caller by id), or null for a visitor. */
export type Actor = { id: number; isAdmin?: boolean } | null;

/** The one admin rule of the whole server (rights granted with `npm run admin -- grant USERNAME`). */
export const isAdmin = (actor: Actor): boolean => actor?.isAdmin === true;

/** A domain's rule as a route declares it. */
export interface DomainRule {
  /** `<domain>.<action>`, as the OpenAPI document names it. */
  readonly name: string;
  /** Who reaches the route at all: 'user' answers 401 to a visitor before anything else. */
  readonly base: 'public' | 'user';
  /** The domain's check at the edge, when its subject is known from the request alone. */
  readonly edge?: (req: FastifyRequest, ctx: Pick<AppContext, 'config'>) => void;
}

export type Rule = 'public' | 'user' | 'admin' | DomainRule;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The rule that guards the route (required: http/authorization.ts refuses a route without one). */
    auth?: Rule;
  }
}

export const ruleName = (rule: Rule): string => (typeof rule === 'string' ? rule : rule.name);

/** One rule of a domain: whether the actor may do the action to the subject, and what a refusal answers. */
export interface Grant<S> {
  /** 'user' unless said: the route edge refuses visitors with 401 first. */
  base?: 'public' | 'user';
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

/** The edge's check of a rule, or undefined for a public route. */
function guardOf(rule: Rule, ctx: Pick<AppContext, 'config'>): onRequestHookHandler | undefined {
  if (rule === 'public') return undefined;
  if (rule === 'user') return async (req) => void requireUser(req);
  if (rule === 'admin')
    return async (req) => {
      if (!isAdmin(requireUser(req))) throw forbidden('Administrators only.');
    };
  const { base, edge } = rule;
  if (base === 'public' && !edge) return undefined;
  return async (req) => {
    if (base === 'user') requireUser(req);
    edge?.(req, ctx);
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
 * before validation (preValidation), every other after it (preHandler), where the handlers made it before.
 * Registered before any route, so it sees them all.
 */
export function registerAuthorization(app: App, ctx: Pick<AppContext, 'config'>): void {
  app.addHook('onRoute', function (this: object, route: RouteOptions) {
    const inPublicScope = (this as Record<string, unknown>)[PUBLIC_SCOPE] === true;
    const rule = route.config?.auth ?? (inPublicScope ? 'public' : undefined);
    if (!rule) throw new Error(`${String(route.method)} ${route.url} declares no authorization rule (config.auth)`);
    if (!route.config?.auth) route.config = { ...route.config, auth: rule };
    const guard = guardOf(rule, ctx);
    if (!guard) return;
    const stage = rule === 'admin' ? 'preValidation' : 'preHandler';
    route[stage] = [...([] as onRequestHookHandler[]).concat((route[stage] as never) ?? []), guard] as never;
  });
}
