import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { App } from '../context';

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
  { name: 'admin', description: 'Administrators only: the books, reports, deciding donation links' },
  { name: 'operations', description: 'Health' },
];

/** What each status means everywhere (DESIGN.md §2 "Errors"), shown beside every answer a route declares. */
const STATUS_TEXT: Record<string, string> = {
  200: 'OK',
  400: 'Invalid input: a list of {field, errorText}, nothing changed',
  401: 'Not signed in',
  402: 'The balance is short: {missing} cents, nothing changed',
  403: "Not allowed: another user's or an admin-only resource",
  404: 'Not found',
  409: 'Changed since the client saw it: the answer carries the current state',
  429: 'Too many attempts',
  502: 'The payment provider could not be reached',
  503: 'Not available right now',
};

/** Each declared answer gets the meaning of its status as its description, unless the schema has one. */
function describeAnswers({ schema, url }: { schema: object; url: string }) {
  const response = (schema as { response?: Record<string, object> }).response;
  if (!response) return { schema, url };
  const described = Object.fromEntries(
    Object.entries(response).map(([status, answer]) => [
      status,
      { description: STATUS_TEXT[status] ?? `HTTP ${status}`, ...answer },
    ]),
  );
  return { schema: { ...schema, response: described }, url };
}

/**
 * OpenAPI 3.1 generated from the routes' own schemas (common/api/), at /api/openapi.json, with a browsable page at
 * /api/docs. Registered before any route, so it sees them all. Routes that are not part of the API (the web
 * client's pages, the live socket) say `hide: true`.
 */
export async function registerOpenApi(app: App): Promise<void> {
  // A route the API documents must say what it answers: refuse to start otherwise, so it cannot slip through.
  app.addHook('onRoute', (route) => {
    const schema = route.schema as { hide?: boolean; response?: object } | undefined;
    if (schema?.hide || route.method === 'HEAD') return;
    if (!schema?.response) throw new Error(`${String(route.method)} ${route.url} has no response schema`);
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
          '403; 404; 409 with the current price; 429. Calls that move money or items honour an Idempotency-Key ' +
          'header. The live connection is one websocket at /api/wss/universal (common/live.ts types it).',
      },
      tags: TAGS,
      components: {
        securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'sid' } },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' } });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
