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
import { ensureSystemAccounts } from './ledger/commands';
import type { Bus } from './live/bus';
import type { Mailer } from './mail/mailer';
import { authenticate, registerSessionHook } from './http/auth';
import { registerCompression } from './http/compression';
import { originAllowed, registerErrorHandler, registerOriginCheck, requestId } from './http/hooks';
import { registerMetrics } from './http/metrics';
import { registerOpenApi } from './http/openapi';
import { healthRoutes } from './modules/health/health.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { userRoutes } from './modules/users/users.routes';
import { paymentRoutes } from './modules/payments/payments.routes';
import { adminRoutes } from './modules/admin/admin.routes';
import { pictureRoutes } from './modules/pictures/pictures.routes';
import { Hub } from './live/hub';
import { liveRoutes } from './live/live.routes';
import { spaRoutes } from './modules/spa/spa.routes';

export interface AppDeps {
  config: Config;
  database: Database;
  bus: Bus;
  mailer: Mailer;
  now?: () => Date;
  /** pino options, or false to log nothing (tests). */
  logger?: boolean | object;
}

export interface BuiltApp {
  app: App;
  ctx: AppContext;
}

/** Builds the whole server: plugins, hooks and every module's routes. Listening is the caller's business. */
export async function buildApp(deps: AppDeps): Promise<BuiltApp> {
  const app = Fastify({
    logger: deps.logger ?? { level: deps.config.logLevel },
    genReqId: requestId,
    requestIdHeader: false,
    trustProxy: true,
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;

  const hub = new Hub({ bus: deps.bus, heartbeatMs: deps.config.liveHeartbeatMs, log: app.log });
  const ctx = makeContext({
    config: deps.config,
    database: deps.database,
    db: deps.database.db,
    bus: deps.bus,
    live: hub,
    mailer: deps.mailer,
    log: app.log,
    now: deps.now ?? (() => new Date()),
  });

  await ensureSystemAccounts(ctx.db);

  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  await app.register(cookie);
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", 'https://accounts.google.com/gsi/client'],
        styleSrc: ["'self'", "'unsafe-inline'", 'https://accounts.google.com/gsi/style'],
        imgSrc: ["'self'", 'data:', 'blob:', 'https://*.googleusercontent.com'],
        connectSrc: ["'self'", 'ws:', 'wss:', 'https://accounts.google.com/gsi/'],
        frameSrc: ["'self'", 'https://accounts.google.com/gsi/', 'https://checkout.stripe.com'],
        formAction: ["'self'", 'https://checkout.stripe.com'],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginResourcePolicy: { policy: 'same-site' },
  });
  await registerCompression(app);
  await app.register(rateLimit, { global: false });
  await app.register(multipart, { limits: { fileSize: 4 * 1024 * 1024 + 1024, files: 1, fields: 10 } });
  // The live hub tracks its own sockets and closes them with 1001 on shutdown (the plugin would send no code).
  await app.register(websocket, { options: { maxPayload: 64 * 1024, clientTracking: false } });

  registerErrorHandler(app);
  registerOriginCheck(app, ctx);
  registerSessionHook(app, ctx);
  await registerOpenApi(app); // before any route, so it sees them all
  registerMetrics(app);

  await healthRoutes(app, ctx);
  await authRoutes(app, ctx);
  await userRoutes(app, ctx);
  await paymentRoutes(app, ctx);
  await adminRoutes(app, ctx);
  await pictureRoutes(app, ctx);
  await liveRoutes(app, {
    hub,
    authenticate,
    originAllowed: (req) => originAllowed(req.headers.origin, req.headers.host, ctx),
  });
  await spaRoutes(app, ctx);

  return { app, ctx };
}
