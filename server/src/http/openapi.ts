import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { SharedAnswers } from '../../../common/api/shared';
import type { App } from '../context';
import { publicScope, refusesSuspended, ruleName, type Rule } from './authorization';

/** One tag per domain; a new domain adds its own here (docs/ARCHITECTURE.md "Adding a domain"). */
const TAGS = [
  { name: 'auth', description: 'Sign-up, sign-in (password or Google), nickname, email verification' },
  { name: 'users', description: "The signed-in user's profile and face; anyone's public card" },
  { name: 'payments', description: 'Card top-up: the demo provider or Stripe Checkout' },
  { name: 'pictures', description: 'The wall: rankings, detail, upload, funding, stored images' },
  { name: 'items', description: 'The catalogue of letters and emojis, what is on sale and what one owns' },
  { name: 'lootboxes', description: 'Keys, free boxes, openings and the proof that no opening was rigged' },
  { name: 'market', description: 'Buy and sell offers, trades at the resting price, and the price graphs' },
  { name: 'chat', description: 'The paid General chat room: messages, the unit price, who is online' },
  { name: 'comments', description: 'Comments and replies on pictures, their paid emoji reactions and pins' },
  { name: 'reports', description: 'Reports of comments and chat messages' },
  { name: 'transactions', description: "The signed-in user's statement: sums per type, rows, the CSV download" },
  { name: 'goodwill', description: "The cause half of every spend goes to, one's shares, and the proof of forwarding" },
  {
    name: 'notifications',
    description: "The caller's notifications: the unread count, the preview, the list, reading",
  },
  { name: 'charity', description: 'Donation links: sending one, your own, the public list (charity tenants only)' },
  {
    name: 'moderation',
    description: "Moderators' decisions on reports, removal, suspensions and refunds, appeals, the public log",
  },
  { name: 'blocks', description: "Blocking users: the caller's list, blocking and undoing it" },
  { name: 'push', description: 'Web Push: the VAPID key, subscriptions per device, the switches per type' },
  // new-domain: tags (scripts/new-domain.ts adds a new domain's tag above this line)
  { name: 'admin', description: 'Administrators only: the books, reports, deciding donation links' },
  { name: 'operations', description: 'Health' },
];

/** What each status means everywhere (docs/product.md#errors), shown beside every answer a route declares. */
const STATUS_TEXT: Record<string, string> = {
  200: 'OK',
  400: 'Invalid input: a list of {field, errorText}, nothing changed',
  401: 'Not signed in',
  402: 'The balance is short: {missing} cents, nothing changed',
  403: "Not allowed: another user's or an admin-only resource, or a call sent by another site's page",
  404: 'Not found',
  408: 'The request did not arrive whole in time (HTTP_REQUEST_TIMEOUT_MS); the connection is closed',
  409: 'Changed since the client saw it: the answer carries the current state',
  413: 'The body is larger than the call takes',
  415: 'The body is of a type the call does not read (JSON, or multipart where the call says so)',
  429: 'Too many attempts; Retry-After says when to try again',
  502: 'The payment provider could not be reached',
  503: 'Not available right now (the database is away, or the server is stopping); Retry-After says when to retry',
};

declare module 'fastify' {
  interface FastifySchema {
    /** A multipart call's fields, for the document only: the handler reads the form itself (never `req.body`). */
    form?: unknown;
  }
}

/** The methods whose calls never carry a body, and never change anything (no Origin check). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

interface RouteFacts {
  method: string | string[];
  url: string;
  schema?: { hide?: boolean; response?: Record<string, unknown>; summary?: string; operationId?: string };
  config?: { skipOriginCheck?: boolean; rateLimit?: unknown; auth?: Rule };
}

/**
 * The answers a route gives by its nature (common/api/shared.ts `SharedAnswers`): every route can meet bad input and
 * an absent database; a call that changes something, a foreign Origin; a call with a body, a slow, large or
 * wrongly typed one; a rate-limited call, its limit. A route's own declaration of a status wins.
 */
export function sharedAnswers(route: RouteFacts): Record<string, unknown> {
  const methods = ([] as string[]).concat(route.method);
  const unsafe = methods.some((m) => !SAFE_METHODS.has(m));
  return {
    ...SharedAnswers.any,
    ...(unsafe && !route.config?.skipOriginCheck ? SharedAnswers.crossSite : {}),
    ...(unsafe ? SharedAnswers.body : {}),
    ...(route.config?.rateLimit ? SharedAnswers.limited : {}),
  };
}

/**
 * Each declared answer gets the meaning of its status as its description, unless it has one; a form its body; the
 * operation the name of the rule that guards it (`x-authorization`, http/authorization.ts).
 */
function describeAnswers({ schema, url, route }: { schema: object; url: string; route: { config?: { auth?: Rule } } }) {
  const { response, form, ...rest } = schema as { response?: Record<string, object>; form?: unknown };
  const described = response
    ? Object.fromEntries(
        Object.entries(response).map(([status, answer]) => [
          status,
          { description: STATUS_TEXT[status] ?? `HTTP ${status}`, ...answer },
        ]),
      )
    : undefined;
  const auth = route.config?.auth;
  return {
    schema: {
      ...rest,
      ...(form ? { body: form } : {}),
      ...(described ? { response: described } : {}),
      ...(auth ? { 'x-authorization': ruleName(auth) } : {}),
      ...(auth && typeof auth === 'object' ? { 'x-authorization-base': auth.base } : {}),
    },
    url,
  };
}

/**
 * OpenAPI 3.1 generated from the routes' own schemas (common/api/), at /api/openapi.json, with a browsable page at
 * /api/docs. Registered before any route, so it sees them all. Routes that are not part of the API (the web
 * client's pages, the live socket) say `hide: true`.
 */
export async function registerOpenApi(app: App): Promise<void> {
  // A route the API documents must say what it does and answers: refuse to start otherwise, so none slips through.
  // The answers every route gives by its nature are added here, to the document and to the route's serializers.
  app.addHook('onRoute', (route) => {
    const facts = route as RouteFacts;
    const schema = facts.schema;
    if (schema?.hide || route.method === 'HEAD') return;
    const name = `${String(route.method)} ${route.url}`;
    if (!schema?.response) throw new Error(`${name} has no response schema`);
    if (!schema.summary || !schema.operationId) throw new Error(`${name} has no summary or no operationId`);
    schema.response = {
      ...sharedAnswers(facts),
      ...schema.response,
      // A suspended user's 403 carries the end date, whatever else the route refuses with 403.
      ...(refusesSuspended(facts.config?.auth) ? SharedAnswers.member : {}),
    };
  });
  await app.register(swagger, {
    transform: describeAnswers,
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'The Wall API',
        version: '1',
        description:
          'Amounts are integer cents. Errors: 400 a list of {field, errorText}; 401 not signed in; 402 {missing}; ' +
          '403; 404; 409 with the current price; 429; every other error {message}. A body is JSON unless the call ' +
          'says multipart/form-data. Calls that move money or items honour an Idempotency-Key header. Before any ' +
          'call is reached, a request HTTP cannot read is a 400, headers over 16 KiB a 431, an Expect other than ' +
          '100-continue a 417, and a connection past HTTP_MAX_CONNECTIONS_PER_ADDRESS is closed. The live ' +
          'connection is one websocket at /api/wss/universal (common/live.ts types it).',
      },
      tags: TAGS,
      components: {
        securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'sid' } },
      },
    },
  });
  await publicScope(app, async (docs) => {
    await docs.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' } });
  });
  app.get('/api/openapi.json', { schema: { hide: true }, config: { auth: 'public' } }, async () => app.swagger());
}
