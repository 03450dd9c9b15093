import Fastify from 'fastify';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import websocket from '@fastify/websocket';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config';
import { makeContext, type App, type AppContext } from './context';
import type { Database } from './db/connection';
import { ReadRouting } from './db/read-routing';
import { redisTarget } from './db/redis-connection';
import { ensureSystemAccounts } from './ledger/commands';
import type { Bus } from './live/bus';
import type { Mailer } from './mail/mailer';
import type { Storage } from './storage/storage';
import { authenticate, liveSessions, registerSessionHook } from './http/auth';
import { registerCompression } from './http/compression';
import { registerContentTypeCheck } from './http/content-type';
import { siteCsp } from './http/csp';
import { originAllowed, registerErrorHandler, registerOriginCheck, requestId } from './http/hooks';
import { answerExpectations, capConnectionsPerAddress, drainUnreadBodies, httpServerOptions } from './http/connections';
import { clientErrorHandler, frameworkErrors, MAX_PARAM_LENGTH, registerInputChecks } from './http/input';
import { registerMetrics } from './http/metrics';
import { registerOpenApi } from './http/openapi';
import { registerAuthorization } from './http/authorization';
import { healthRoutes } from './modules/health/health.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { userRoutes } from './modules/users/users.routes';
import { paymentRoutes } from './modules/payments/payments.routes';
import { adminRoutes } from './modules/admin/admin.routes';
import { itemRoutes } from './modules/items/items.routes';
import { lootboxRoutes } from './modules/lootboxes/lootboxes.routes';
import { marketRoutes } from './modules/market/market.routes';
import { chatRoutes } from './modules/chat/chat.routes';
import { pictureRoutes } from './modules/pictures/pictures.routes';
import { commentRoutes } from './modules/comments/comments.routes';
import { reportRoutes } from './modules/reports/reports.routes';
import { transactionRoutes } from './modules/transactions/transactions.routes';
import { goodwillRoutes } from './modules/goodwill/goodwill.routes';
import { notificationRoutes } from './modules/notifications/notifications.routes';
import { charityRoutes } from './modules/charity/charity.routes';
import { moderationRoutes } from './modules/moderation/moderation.routes';
import { blockRoutes } from './modules/blocks/blocks.routes';
import { blockedWordRoutes } from './modules/moderation/blocked-words.routes';
import { pushRoutes } from './modules/push/push.routes';
// new-domain: imports (scripts/new-domain.ts adds a new domain's routes import above this line)
import { Hub } from './live/hub';
import { liveRoutes } from './live/live.routes';
import { spaRoutes } from './modules/spa/spa.routes';
import { openCounters } from './modules/limits/limits.service';
import { rateLimitStore } from './modules/limits/rate-limit-store';

export interface AppDeps {
  config: Config;
  database: Database;
  bus: Bus;
  mailer: Mailer;
  storage: Storage;
  now?: () => Date;
  /** pino options, or false to log nothing (tests). */
  logger?: boolean | object;
}

export interface BuiltApp {
  app: App;
  ctx: AppContext;
  /** The whole bus, which modules only listen to (`ctx.bus`): the live tests send on it as another instance would. */
  bus: Bus;
}

/** Builds the whole server: plugins, hooks and every module's routes. Listening is the caller's business. */
export async function buildApp(deps: AppDeps): Promise<BuiltApp> {
  const app = Fastify({
    logger: deps.logger ?? { level: deps.config.logLevel },
    genReqId: requestId,
    requestIdHeader: false,
    trustProxy: proxyTrust(deps.config.trustProxy),
    bodyLimit: 1024 * 1024,
    // Requests arriving during shutdown get the contract's 503 (http/hooks.ts `registerCloseOnShutdown`).
    return503OnClosing: false,
    // One validator setting for every route: a body's "100" stays a string and fails a number schema. Params and
    // querystrings are strings by nature; their schemas match digits (common/api/shared.ts `Digits`).
    ajv: { customOptions: { coerceTypes: false } },
    frameworkErrors,
    clientErrorHandler,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Time to receive a request, headers and body (issue 22, item 28): Fastify sets `requestTimeout` on the server
    // again after creating it, so it is given here too.
    http: httpServerOptions(deps.config),
    requestTimeout: deps.config.httpRequestTimeoutMs,
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;
  capConnectionsPerAddress(app.server, deps.config);
  answerExpectations(app.server);

  const hub = new Hub({
    bus: deps.bus,
    heartbeatMs: deps.config.liveHeartbeatMs,
    maxPerAddress: deps.config.liveMaxPerAddress,
    maxPerSession: deps.config.liveMaxPerSession,
    // After Redis returns, the sockets of sessions that ended meanwhile close (their sign-out notice may be lost).
    sessionsAlive: (sessions) => liveSessions(deps.database.db, sessions, deps.now?.() ?? new Date()),
    log: app.log,
  });
  const reads = new ReadRouting({
    primary: deps.database.db,
    replica: deps.database.replica,
    maxLagMs: deps.config.dbReadMaxLagMs,
    onChange: (state) => app.log.info(state, 'read routing changed'),
  });
  await reads.start();
  app.addHook('onClose', async () => reads.stop());
  const ctx = makeContext({
    config: deps.config,
    database: deps.database,
    db: deps.database.db,
    reads,
    bus: deps.bus,
    live: hub,
    mailer: deps.mailer,
    storage: deps.storage,
    log: app.log,
    now: deps.now ?? (() => new Date()),
    lifecycle: { draining: false },
  });

  await ensureSystemAccounts(ctx.db);
  const counters = await openCounters({
    redis: redisTarget(deps.config),
    prefix: `${deps.config.redisChannel}:limits:`,
    db: ctx.db,
    now: ctx.now,
    onError: (err) => app.log.error({ err }, 'redis (rate limits)'),
    events: {
      away: (err) => app.log.warn({ reason: err.message }, 'redis away: rate-limit counters in the database meanwhile'),
      back: (folded) => app.log.info({ folded }, 'redis back: rate-limit counters in Redis again'),
    },
  });
  app.addHook('onClose', async () => counters.close());

  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  await app.register(cookie);
  await app.register(helmet, {
    contentSecurityPolicy: siteCsp(deps.config.imageBaseUrl),
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginResourcePolicy: { policy: 'same-site' },
  });
  await registerCompression(app);
  await app.register(rateLimit, { global: false, store: rateLimitStore(counters) });
  await app.register(multipart, { limits: { fileSize: 4 * 1024 * 1024 + 1024, files: 1, fields: 10 } });
  // The live hub tracks its own sockets and closes them with 1001 on shutdown (the plugin would send no code).
  await app.register(websocket, { options: { maxPayload: 64 * 1024, clientTracking: false } });

  registerErrorHandler(app);
  registerInputChecks(app);
  registerOriginCheck(app, ctx);
  // After the Origin check: a call another site's page sent is refused as that, whatever its type.
  registerContentTypeCheck(app);
  drainUnreadBodies(app);
  registerSessionHook(app, ctx);
  registerAuthorization(app, ctx); // before any route, so none escapes it
  await registerOpenApi(app); // before any route, so it sees them all
  registerMetrics(app, deps.config.metricsToken);

  await healthRoutes(app, ctx);
  await authRoutes(app, ctx, counters);
  await userRoutes(app, ctx);
  await paymentRoutes(app, ctx);
  await adminRoutes(app, ctx);
  await pictureRoutes(app, ctx);
  await itemRoutes(app, ctx);
  await lootboxRoutes(app, ctx);
  await marketRoutes(app, ctx);
  await chatRoutes(app, ctx);
  await commentRoutes(app, ctx);
  await reportRoutes(app, ctx);
  await transactionRoutes(app, ctx);
  await goodwillRoutes(app, ctx);
  await notificationRoutes(app, ctx);
  await charityRoutes(app, ctx);
  await moderationRoutes(app, ctx);
  await blockRoutes(app, ctx);
  await blockedWordRoutes(app, ctx);
  await pushRoutes(app, ctx);
  // new-domain: routes (scripts/new-domain.ts registers a new domain's routes above this line)
  await liveRoutes(app, {
    hub,
    authenticate,
    originAllowed: (req) => originAllowed(req.headers.origin, req.host, ctx),
  });
  await spaRoutes(app, ctx);

  return { app, ctx, bus: deps.bus };
}

/**
 * TRUST_PROXY as Fastify takes it. A hop count becomes a function: Fastify trusts nothing for a bare number, as it
 * cannot tell a proxy from a client connecting directly; with a hop count the operator says no client can.
 */
function proxyTrust(setting: Config['trustProxy']): false | string[] | ((address: string, hop: number) => boolean) {
  if (setting === false || setting === 0) return false;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return setting;
}
