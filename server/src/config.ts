import { isIP } from 'node:net';
import path from 'node:path';
import type { RedisSentinels } from './db/redis-connection';

/** Everything the server reads from its environment, parsed once. Tests build their own with `loadConfig(overrides)`. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /**
   * PostgreSQL itself when DATABASE_URL is a pooler in transaction mode (PgBouncer): migrations and anything that needs
   * a session go here, and its being set tells the pool that DATABASE_URL keeps no session (docs/scaling.md).
   */
  databaseDirectUrl: string | undefined;
  /**
   * How long an instance told to stop keeps serving while its health check answers 503, so a load balancer takes it
   * out before it closes (SHUTDOWN_DRAIN_MS; by default 3 s behind a proxy, TRUST_PROXY set, else 0).
   */
  shutdownDrainMs: number;
  /** A streaming replica for reads that tolerate lag (DATABASE_READ_URL; docs/scaling.md, "Read replica"). */
  databaseReadUrl: string | undefined;
  /** Past this replay lag, lag-tolerant reads go to the primary (DB_READ_MAX_LAG_MS). */
  dbReadMaxLagMs: number;
  redisUrl: string | undefined;
  /**
   * Redis through Sentinel (REDIS_SENTINELS, REDIS_SENTINEL_NAME) instead of REDIS_URL: the master is whichever the
   * Sentinels name, and a failover is followed by itself (docs/scaling.md, "Redis failover").
   */
  redisSentinels: RedisSentinels | undefined;
  publicUrl: string | undefined;
  cashHosts: Set<string>;
  /** Charity-tenant hosts that links in mails may point at (every unlisted host is a charity tenant too). */
  charityHosts: Set<string>;
  /**
   * Which proxies' X-Forwarded-For, -Proto and -Host headers count: false (none: the default), a hop count, or a
   * list of addresses and CIDR ranges (TRUST_PROXY).
   */
  trustProxy: false | number | string[];
  seedDemo: boolean;
  /** PAYMENTS: 'auto' (unset: Stripe when both keys are set, else the demo), 'demo', or 'stripe' (keys required). */
  payments: 'auto' | 'demo' | 'stripe';
  /** Set when top-up runs through Stripe; undefined means the built-in demo provider. */
  stripe: { secretKey: string; webhookSecret: string; apiUrl: string | undefined } | undefined;
  smtpUrl: string | undefined;
  /** MAIL_FROM: the address mails are sent from; the name shown is the tenant's brand (mail/mailer.ts). */
  mailFrom: string;
  /** DATA_DIR_MIN_FREE_MB in bytes: /api/health answers 503 when DATA_DIR has less free space (0: not checked). */
  dataDirMinFreeBytes: number;
  google: { clientId: string; jwksUrl: string } | undefined;
  logLevel: string;
  /** Requests per minute per IP on login and registration. */
  authRateLimit: number;
  /**
   * Failed password logins per 15 minutes: per account and address, and per account from addresses the account has
   * not signed in from.
   */
  accountLoginLimit: number;
  /** Hours a verification link stays valid. */
  emailVerifyHours: number;
  /** Bearer token that /metrics requires; unset, /metrics is not served. */
  metricsToken: string | undefined;
  /** Sessions last this many days. */
  sessionDays: number;
  /** Serve the built web client from dist/web (off in API-only tests). */
  serveWeb: boolean;
  /** Platform fee on market trades, in basis points. */
  marketFeeBps: number;
  /** The chat's unit price in a calm room, cents; it rises with the last minute's messages (common/chat.ts). */
  chatBaseUnitPrice: number;
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
  /** Picture uploads per signed-in user per minute (0: no limit). */
  uploadRateLimit: number;
  /** Reports per signed-in user per minute (0: no limit; docs/product.md#reports). */
  reportRateLimit: number;
  /** Live sockets one client address may hold open on an instance (0: no cap). */
  liveMaxPerAddress: number;
  /** Live sockets one session may hold open on an instance (0: no cap). */
  liveMaxPerSession: number;
  /**
   * A request's headers must have arrived within this long of its first byte (at most `httpRequestTimeoutMs`), else
   * 408 and the connection closes.
   */
  httpHeadersTimeoutMs: number;
  /** A request must have arrived whole, headers and body, within this long, else 408 and the connection closes. */
  httpRequestTimeoutMs: number;
  /**
   * Connections one client address may hold open on an instance at once (0: no cap); the next one is closed at once.
   * Counted by the connection's own address: a proxy TRUST_PROXY trusts is not capped (http/connections.ts).
   */
  httpMaxConnectionsPerAddress: number;
  /**
   * Where images are stored: undefined keeps them on local disk under DATA_DIR/images; set (S3_BUCKET) they live in
   * an S3 bucket shared by every instance (storage/s3.ts, docs/decisions.md "Images in object storage").
   */
  s3: S3Config | undefined;
  /** IMAGE_BASE_URL without its trailing slash: /images/{key} redirects to `${imageBaseUrl}/{key}` (a CDN or public bucket). */
  imageBaseUrl: string | undefined;
  /**
   * The VAPID pair push messages are signed with (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, base64url), both or neither;
   * undefined: made on first start and kept in the database (docs/decisions.md "Issue 27: the push outbox and VAPID
   * keys").
   */
  vapidKeys: { publicKey: string; privateKey: string } | undefined;
  /** VAPID_SUBJECT: how a push service reaches the operator, mailto: or https:; by default PUBLIC_URL or MAIL_FROM. */
  vapidSubject: string;
  /** PUSH_ALLOW_HTTP=1: push endpoints on http://localhost or 127.0.0.1 are taken too (tests, a local push server). */
  pushAllowHttp: boolean;
}

export interface S3Config {
  bucket: string;
  /** S3_ENDPOINT: an S3-compatible server's URL (MinIO, a local test server); undefined: AWS's own for the region. */
  endpoint: string | undefined;
  region: string;
  /** S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or undefined for the SDK's own chain (environment, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** S3_FORCE_PATH_STYLE=1: `endpoint/bucket/key` rather than `bucket.endpoint/key` (MinIO-style servers). */
  forcePathStyle: boolean;
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got "${raw}"`);
  return n;
}

function hostList(env: Env, name: string, fallback: string): Set<string> {
  return new Set(
    (env[name] ?? fallback)
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  );
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An address or CIDR range as proxy-addr understands it (or one of its names: loopback, linklocal, uniquelocal). */
function proxyAddress(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  if (isIP(prefix) === 4 && family === 4) return true; // a netmask, 10.0.0.0/255.0.0.0
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: unset, empty, 0, false or off trust no proxy (a client's X-Forwarded-* headers are ignored); a whole
 * number trusts that many hops in front of the app; otherwise a comma-separated list of the proxies' addresses or
 * CIDR ranges. `true` is refused: trusting every sender of the header is what let a client pick its own address.
 */
function trustProxy(env: Env): false | number | string[] {
  const raw = env.TRUST_PROXY?.trim() ?? '';
  if (['', '0', 'false', 'off', 'no'].includes(raw.toLowerCase())) return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const bad = entries.find((e) => !proxyAddress(e));
  if (bad !== undefined || entries.length === 0) {
    throw new Error(
      `TRUST_PROXY must be a hop count or a comma-separated list of proxy addresses or CIDR ranges, got "${raw}"`,
    );
  }
  return entries;
}

function payments(env: Env): Config['payments'] {
  const raw = (env.PAYMENTS ?? '').trim().toLowerCase();
  if (raw === '') return 'auto';
  if (raw === 'demo' || raw === 'stripe') return raw;
  throw new Error(`PAYMENTS must be "stripe" or "demo", got "${env.PAYMENTS}"`);
}

function positive(env: Env, name: string, fallback: number): number {
  const n = int(env, name, fallback);
  if (n === 0) throw new Error(`${name} must be at least 1, got "${env[name]}"`);
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

function httpUrl(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${name} is not a URL: "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${name} must be http(s), got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

/**
 * REDIS_SENTINELS (`host:port,host:port,…`) with REDIS_SENTINEL_NAME, the master group's name; never beside
 * REDIS_URL, which would leave two answers to "where is Redis".
 */
function redisSentinels(env: Env): RedisSentinels | undefined {
  const raw = env.REDIS_SENTINELS?.trim() ?? '';
  const name = env.REDIS_SENTINEL_NAME?.trim() ?? '';
  if (!raw) {
    if (name) throw new Error('REDIS_SENTINEL_NAME is set without REDIS_SENTINELS (host:port,…)');
    return undefined;
  }
  if (env.REDIS_URL)
    throw new Error('REDIS_SENTINELS and REDIS_URL are both set: set one (REDIS_SENTINELS for Sentinel)');
  if (!name) throw new Error('REDIS_SENTINELS needs REDIS_SENTINEL_NAME, the master group name the Sentinels monitor');
  if (/\s/.test(name)) throw new Error(`REDIS_SENTINEL_NAME must be one word, got "${env.REDIS_SENTINEL_NAME}"`);
  const sentinels = raw.split(',').map((entry) => {
    const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(entry.trim());
    const port = Number(m?.[2]);
    if (!m || port < 1 || port > 65535) {
      throw new Error(`REDIS_SENTINELS must be a comma-separated list of host:port, got "${entry.trim()}" in "${raw}"`);
    }
    return { host: m[1]!.replace(/^\[(.*)\]$/, '$1'), port };
  });
  return { sentinels, name };
}

/** S3_BUCKET chooses object storage for images; the other S3_ variables say how to reach it. */
function s3(env: Env): S3Config | undefined {
  const bucket = env.S3_BUCKET?.trim();
  if (!bucket) return undefined;
  const accessKeyId = env.S3_ACCESS_KEY_ID || undefined;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || undefined;
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new Error('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together, or neither');
  }
  const pathStyle = (env.S3_FORCE_PATH_STYLE ?? '').trim().toLowerCase();
  if (!['', '0', '1', 'true', 'false'].includes(pathStyle)) {
    throw new Error(`S3_FORCE_PATH_STYLE must be 1 or 0, got "${env.S3_FORCE_PATH_STYLE}"`);
  }
  return {
    bucket,
    endpoint: httpUrl(env, 'S3_ENDPOINT'),
    region: env.S3_REGION?.trim() || 'us-east-1',
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    forcePathStyle: pathStyle === '1' || pathStyle === 'true',
  };
}

/** VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, both or neither: a P-256 public point (65 bytes) and its scalar (32). */
function vapidKeys(env: Env): Config['vapidKeys'] {
  const publicKey = env.VAPID_PUBLIC_KEY?.trim() || undefined;
  const privateKey = env.VAPID_PRIVATE_KEY?.trim() || undefined;
  if (!publicKey && !privateKey) return undefined;
  if (!publicKey || !privateKey) throw new Error('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together, or neither');
  const bytes = (value: string) => (/^[A-Za-z0-9_-]+$/.test(value) ? Buffer.from(value, 'base64url').length : 0);
  if (bytes(publicKey) !== 65 || publicKey[0] !== 'B') {
    throw new Error('VAPID_PUBLIC_KEY must be an uncompressed P-256 point in base64url (65 bytes, as web-push makes)');
  }
  if (bytes(privateKey) !== 32) throw new Error('VAPID_PRIVATE_KEY must be 32 bytes in base64url (as web-push makes)');
  return { publicKey, privateKey };
}

/** VAPID_SUBJECT, else an https PUBLIC_URL, else MAIL_FROM as a mailto: (push services want one of the two). */
function vapidSubject(env: Env, publicUrl: string | undefined, mailFrom: string): string {
  const raw = env.VAPID_SUBJECT?.trim();
  if (raw) {
    if (!/^(mailto:\S+@\S+|https:\/\/\S+)$/.test(raw)) {
      throw new Error(`VAPID_SUBJECT must be a mailto: address or an https: URL, got "${raw}"`);
    }
    return raw;
  }
  if (publicUrl?.startsWith('https://')) return publicUrl;
  return `mailto:${mailFrom}`;
}

export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const port = int(env, 'PORT', 3000);
  const publicUrl = env.PUBLIC_URL?.replace(/\/$/, '') || undefined;
  const cashHosts = hostList(env, 'CASH_HOSTS', `localhost:${port},127.0.0.1:${port}`);
  const publicHost = hostOf(publicUrl);
  if (publicHost) cashHosts.add(publicHost.toLowerCase());

  const paymentsMode = payments(env);
  const stripeKey = env.STRIPE_SECRET_KEY;
  const stripeHook = env.STRIPE_WEBHOOK_SECRET;
  if (paymentsMode === 'stripe' && !(stripeKey && stripeHook)) {
    const missing = [stripeKey ? undefined : 'STRIPE_SECRET_KEY', stripeHook ? undefined : 'STRIPE_WEBHOOK_SECRET'];
    throw new Error(`PAYMENTS=stripe needs ${missing.filter(Boolean).join(' and ')} to be set`);
  }
  const useStripe = paymentsMode !== 'demo' && Boolean(stripeKey && stripeHook);
  const googleClient = env.GOOGLE_CLIENT_ID;

  const config: Config = {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    databaseDirectUrl: env.DATABASE_DIRECT_URL || undefined,
    databaseReadUrl: env.DATABASE_READ_URL || undefined,
    dbReadMaxLagMs: int(env, 'DB_READ_MAX_LAG_MS', 5000),
    redisUrl: env.REDIS_URL || undefined,
    redisSentinels: redisSentinels(env),
    publicUrl,
    cashHosts,
    charityHosts: hostList(env, 'CHARITY_HOSTS', ''),
    trustProxy: trustProxy(env),
    shutdownDrainMs: int(env, 'SHUTDOWN_DRAIN_MS', trustProxy(env) === false ? 0 : 3000),
    seedDemo: env.SEED_DEMO !== '0',
    payments: paymentsMode,
    stripe: useStripe
      ? { secretKey: stripeKey!, webhookSecret: stripeHook!, apiUrl: env.STRIPE_API_URL || undefined }
      : undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'no-reply@localhost',
    dataDirMinFreeBytes: int(env, 'DATA_DIR_MIN_FREE_MB', 64) * 1024 * 1024,
    google: googleClient
      ? { clientId: googleClient, jwksUrl: env.GOOGLE_JWKS_URL || 'https://www.googleapis.com/oauth2/v3/certs' }
      : undefined,
    logLevel: env.LOG_LEVEL || 'info',
    authRateLimit: int(env, 'AUTH_RATE_LIMIT', 20),
    accountLoginLimit: int(env, 'ACCOUNT_LOGIN_LIMIT', 10),
    emailVerifyHours: positive(env, 'EMAIL_VERIFY_HOURS', 24),
    metricsToken: env.METRICS_TOKEN || undefined,
    sessionDays: int(env, 'SESSION_DAYS', 30),
    serveWeb: env.SERVE_WEB !== '0',
    marketFeeBps: int(env, 'MARKET_FEE_BPS', 0),
    chatBaseUnitPrice: positive(env, 'CHAT_UNIT_PRICE', 1),
    liveHeartbeatMs: int(env, 'LIVE_HEARTBEAT_MS', 30_000),
    redisChannel: env.REDIS_CHANNEL || 'wall:live',
    wallCacheMs: int(env, 'WALL_CACHE_MS', 1000),
    // Chosen so that a request fails within 10 s when PostgreSQL freezes (issue 22, item 23): a wait for a connection
    // (3 s) plus a statement with no answer (5 s, and 1 s of silence more: db/postgres.ts) is 9 s, and a wait plus a
    // whole transaction is at most 10 s. docs/decisions.md "Finish (issue 22)".
    dbConnectTimeoutMs: int(env, 'DB_CONNECT_TIMEOUT_MS', 3000),
    dbStatementTimeoutMs: int(env, 'DB_STATEMENT_TIMEOUT_MS', 5000),
    dbTransactionTimeoutMs: int(env, 'DB_TRANSACTION_TIMEOUT_MS', 7000),
    startupRetryMs: int(env, 'STARTUP_RETRY_MS', 60_000),
    uploadRateLimit: int(env, 'UPLOAD_RATE_LIMIT', 10),
    reportRateLimit: int(env, 'REPORT_RATE_LIMIT', 10),
    liveMaxPerAddress: int(env, 'LIVE_MAX_PER_ADDRESS', 100),
    liveMaxPerSession: int(env, 'LIVE_MAX_PER_SESSION', 20),
    httpHeadersTimeoutMs: positive(env, 'HTTP_HEADERS_TIMEOUT_MS', 30_000),
    httpRequestTimeoutMs: positive(env, 'HTTP_REQUEST_TIMEOUT_MS', 60_000),
    httpMaxConnectionsPerAddress: int(env, 'HTTP_MAX_CONNECTIONS_PER_ADDRESS', 256),
    s3: s3(env),
    imageBaseUrl: httpUrl(env, 'IMAGE_BASE_URL'),
    vapidKeys: vapidKeys(env),
    vapidSubject: vapidSubject(env, publicUrl, env.MAIL_FROM || 'no-reply@localhost'),
    pushAllowHttp: env.PUSH_ALLOW_HTTP === '1',
    ...overrides,
  };
  return config;
}
