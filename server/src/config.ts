import path from 'node:path';

/** Everything the server reads from its environment, parsed once. Tests build their own with `loadConfig(overrides)`. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  publicUrl: string | undefined;
  cashHosts: Set<string>;
  seedDemo: boolean;
  stripe: { secretKey: string; webhookSecret: string; apiUrl: string | undefined } | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  google: { clientId: string; jwksUrl: string } | undefined;
  logLevel: string;
  /** Requests per minute per IP on login and registration. */
  authRateLimit: number;
  /** Failed password logins per account per 15 minutes before the account is throttled. */
  accountLoginLimit: number;
  /** Sessions last this many days. */
  sessionDays: number;
  /** Serve the built web client from dist/web (off in API-only tests). */
  serveWeb: boolean;
  /** Platform fee on market trades, in basis points. */
  marketFeeBps: number;
  /** Live sockets are pinged this often; one that missed the last pong is dropped. */
  liveHeartbeatMs: number;
  /** The Redis pub/sub channel live events travel on; deployments sharing one Redis need different names. */
  redisChannel: string;
  /** How long a page of the wall may be served from memory (0: never); any purchase clears it at once. */
  wallCacheMs: number;
  /** PostgreSQL: opening a connection, or waiting for a free one, fails after this long (503 to the caller). */
  dbConnectTimeoutMs: number;
  /** PostgreSQL: a statement running this long is cancelled; a server silent this long (plus a grace) is cut off. */
  dbStatementTimeoutMs: number;
  /** PostgreSQL: a transaction holding its connection this long is cut off, which rolls it back. */
  dbTransactionTimeoutMs: number;
  /** At start, how long to keep retrying an unreachable PostgreSQL or Redis before giving up (0: fail at once). */
  startupRetryMs: number;
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${raw}"`);
  return n;
}

function hostOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).host;
  } catch {
    throw new Error(`PUBLIC_URL is not a URL: "${url}"`);
  }
}

export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const port = int(env, 'PORT', 3000);
  const publicUrl = env.PUBLIC_URL?.replace(/\/$/, '') || undefined;
  const cashHosts = new Set(
    (env.CASH_HOSTS ?? `localhost:${port},127.0.0.1:${port}`)
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  );
  const publicHost = hostOf(publicUrl);
  if (publicHost) cashHosts.add(publicHost.toLowerCase());

  const stripeKey = env.STRIPE_SECRET_KEY;
  const stripeHook = env.STRIPE_WEBHOOK_SECRET;
  const googleClient = env.GOOGLE_CLIENT_ID;

  const config: Config = {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    publicUrl,
    cashHosts,
    seedDemo: env.SEED_DEMO !== '0',
    stripe:
      stripeKey && stripeHook
        ? { secretKey: stripeKey, webhookSecret: stripeHook, apiUrl: env.STRIPE_API_URL || undefined }
        : undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'The Wall <no-reply@localhost>',
    google: googleClient
      ? { clientId: googleClient, jwksUrl: env.GOOGLE_JWKS_URL || 'https://www.googleapis.com/oauth2/v3/certs' }
      : undefined,
    logLevel: env.LOG_LEVEL || 'info',
    authRateLimit: int(env, 'AUTH_RATE_LIMIT', 20),
    accountLoginLimit: int(env, 'ACCOUNT_LOGIN_LIMIT', 10),
    sessionDays: int(env, 'SESSION_DAYS', 30),
    serveWeb: env.SERVE_WEB !== '0',
    marketFeeBps: int(env, 'MARKET_FEE_BPS', 0),
    liveHeartbeatMs: int(env, 'LIVE_HEARTBEAT_MS', 30_000),
    redisChannel: env.REDIS_CHANNEL || 'wall:live',
    wallCacheMs: int(env, 'WALL_CACHE_MS', 1000),
    dbConnectTimeoutMs: int(env, 'DB_CONNECT_TIMEOUT_MS', 5000),
    dbStatementTimeoutMs: int(env, 'DB_STATEMENT_TIMEOUT_MS', 10_000),
    dbTransactionTimeoutMs: int(env, 'DB_TRANSACTION_TIMEOUT_MS', 15_000),
    startupRetryMs: int(env, 'STARTUP_RETRY_MS', 60_000),
    ...overrides,
  };
  return config;
}
