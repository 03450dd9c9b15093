import { createHash } from 'node:crypto';
import type { Socket } from 'node:net';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { Db } from './connection';
import { DatabaseUnavailableError } from './unavailable';

/**
 * PostgreSQL through a `pg` pool that survives the database going away (issue 9): every connection has an error
 * listener, and connect, statement and transaction time are bounded, so a request meets a dead or frozen database
 * with a quick error (503 to the client) instead of ending the process or hanging, and the pool heals by itself
 * when the database is back (a dead connection is discarded when it is released, and new ones are opened).
 */
export interface PostgresOptions {
  url: string;
  /**
   * PostgreSQL itself when `url` is a pooler in transaction mode (PgBouncer, DATABASE_DIRECT_URL): migrations run
   * here under their session lock, and the pool keeps nothing a later transaction could miss (`pooled` below).
   */
  directUrl?: string | undefined;
  poolSize: number;
  /** Opening a connection, or waiting for a free one in the pool; 0: no bound. */
  connectTimeoutMs: number;
  /** PostgreSQL cancels a statement running longer (statement_timeout); 0: no bound. */
  statementTimeoutMs: number;
  /** A connection held longer (a transaction, in practice) is cut off, which rolls it back; 0: no bound. */
  transactionTimeoutMs: number;
  /** Undefined for a read replica, which is migrated by its primary. */
  migrationsFolder: string | undefined;
  /** A connection lost outside any query (it sat idle, or between two statements of a transaction). */
  onConnectionError?: (err: Error) => void;
}

const INT8 = 20;
const NUMERIC = 1700;
/** Cents fit in a double up to 2^53, about 90 trillion dollars: every driver hands back plain numbers. */
const toNumber = (v: string) => Number(v);

/**
 * Past its statement_timeout PostgreSQL answers with a cancellation. A server still silent this much later cannot
 * answer at all (frozen, or the network is), and only cutting the connection frees its caller.
 */
const SILENCE_GRACE_MS = 1_000;

/** The advisory lock two instances starting at once take, so that only one migrates. */
const MIGRATION_LOCK = 727274;

export async function openPostgres(opts: PostgresOptions): Promise<{ db: Db; close(): Promise<void> }> {
  // drizzle hands pg its own per-query parsers built on the global ones, so the global table is where this must go.
  pg.types.setTypeParser(INT8, toNumber);
  pg.types.setTypeParser(NUMERIC, toNumber);
  const onError = opts.onConnectionError ?? (() => {});

  if (opts.migrationsFolder) await migrateUnderLock(opts, opts.migrationsFolder, onError);

  const silenceMs = opts.statementTimeoutMs ? opts.statementTimeoutMs + SILENCE_GRACE_MS : 0;
  // Through a transaction pooler, each transaction may meet another server connection: a statement prepared under a
  // name on one is unknown on the next, and PgBouncer refuses unknown startup parameters. Its own query_timeout and
  // idle_transaction_timeout bound the server side instead (deploy/pgbouncer.ini), and the client-side bounds hold.
  const pooled = Boolean(opts.directUrl && opts.directUrl !== opts.url);
  const pool = new pg.Pool({
    connectionString: opts.url,
    max: opts.poolSize,
    Client: boundedClient(silenceMs, onError, !pooled),
    connectionTimeoutMillis: opts.connectTimeoutMs,
    keepAlive: true,
    // Sent at connect, so PostgreSQL enforces them itself while it is alive (undefined: the server's default).
    statement_timeout: (!pooled && opts.statementTimeoutMs) || undefined,
    idle_in_transaction_session_timeout: (!pooled && opts.transactionTimeoutMs) || undefined,
  });
  pool.on('error', onError); // an idle connection was lost; the pool has already dropped it
  boundCheckouts(pool, opts.transactionTimeoutMs);
  const db = drizzle(pool) as unknown as Db;
  // drizzle's pool transaction sends BEGIN before the try that gives the connection back: a BEGIN that fails (the
  // database went away) would keep its connection for ever, and a few outages would empty the pool. Transactions
  // take their connection here instead, and always give it back (a broken one is then discarded by the pool).
  db.transaction = (async (fn, config) => {
    const client = await pool.connect();
    try {
      return await drizzle(client).transaction(fn as never, config);
    } finally {
      client.release();
    }
  }) as Db['transaction'];
  return { db, close: () => endPool(pool) };
}

/**
 * A pg client that cannot bring the process down and cannot hang its caller: it always has an 'error' listener
 * (pg emits 'error' on a client whose connection dies while it is checked out between two queries, and an
 * unheard 'error' event ends a Node process), and a query with no answer past `silenceMs` cuts the connection.
 */
function boundedClient(silenceMs: number, onError: (err: Error) => void, prepare: boolean): typeof pg.Client {
  return class BoundedClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super(config);
      this.on('error', onError);
    }

    /** Names of the statements this connection has prepared (see `named`). */
    readonly prepared = new Set<string>();

    /** A transaction's BEGIN not sent yet (see `heldBegin`). */
    private begin: string | null = null;

    // pg's query() has many forms (text or config, values, callback or promise); all are passed through, a
    // statement with parameters under a name (see `named`), a BEGIN as `heldBegin` says.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    override query(...args: unknown[]): any {
      const plain = plainStatement(args);
      if (this.begin === null) {
        if (plain === null || !/^begin\b[^;]*$/i.test(plain)) return this.send(args);
        this.begin = plain;
        return Promise.resolve(NOTHING_RAN);
      }
      const begin = this.begin;
      this.begin = null;
      if (plain !== null && /^(commit|rollback)$/i.test(plain)) return Promise.resolve(NOTHING_RAN);
      if (plain !== null) {
        const config = args[0] as object;
        return (this.send([{ ...config, text: `${begin}; ${plain}` }]) as Promise<pg.QueryResult[]>).then(
          (results) => results[results.length - 1],
        );
      }
      return (this.send([begin]) as Promise<unknown>).then(() => this.send(args));
    }

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    private send(args: unknown[]): any {
      const base = super.query as (...a: unknown[]) => unknown;
      if (prepare) args[0] = named(this.prepared, args[0], args[1]);
      const first = args[0] as { submit?: unknown } | undefined;
      if (!silenceMs || typeof first?.submit === 'function') return base.apply(this, args);
      const timer = setTimeout(() => cut(this, `PostgreSQL did not answer within ${silenceMs} ms`), silenceMs);
      const last = args.length - 1;
      const callback = args[last];
      if (typeof callback === 'function') {
        args[last] = (err: unknown, res: unknown) => {
          clearTimeout(timer);
          callback(err, res);
        };
        return base.apply(this, args);
      }
      const result = base.apply(this, args) as Promise<unknown>;
      const disarm = () => clearTimeout(timer);
      result.then(disarm, disarm);
      return result;
    }
  };
}

/**
 * What a held BEGIN, or a COMMIT or ROLLBACK of a transaction that never sent a statement, answers: nothing ran, so
 * there is nothing to say.
 */
const NOTHING_RAN = { command: '', rowCount: 0, rows: [], fields: [], oid: 0 };

/**
 * Held BEGIN: a transaction's BEGIN travels with its first statement, in one round trip, when that statement has no
 * parameters (then both go as one simple query). A market order's first statement is its book's lock, whose keys are
 * written into its text, so an order saves a round trip and holds its book for one fewer. A first statement with
 * parameters is sent after the BEGIN, as before; a transaction that sends nothing sends nothing at all. Only the
 * config-object form with a promise (how drizzle sends) is held; the text of such a statement, else null.
 */
function plainStatement(args: unknown[]): string | null {
  const config = args[0] as { text?: unknown; name?: unknown; submit?: unknown; rowMode?: unknown } | undefined;
  if (args.length > 2 || typeof args[args.length - 1] === 'function') return null;
  if (!config || typeof config !== 'object' || typeof config.text !== 'string') return null;
  if (config.name !== undefined || config.submit !== undefined || config.rowMode !== undefined) return null;
  const values = Array.isArray(args[1]) ? args[1] : (config as { values?: unknown }).values;
  if (Array.isArray(values) && values.length > 0) return null;
  return config.text.trim();
}

/** Statements a connection keeps prepared at most; past it, new texts run unnamed (planned every time). */
const MAX_PREPARED = 500;
/** Longer texts are rare one-offs (a long IN list), not worth keeping. */
const MAX_PREPARED_TEXT = 8_000;

/**
 * A statement with parameters, as a named prepared statement: PostgreSQL parses and plans it once per connection
 * and then only binds and runs it. Planning the market's and the ledger's statements cost more than running them
 * (docs/performance.md, "Market"): naming them raised market orders from 524 to about 850 a second. The name is a
 * hash of the text, so one name is always one text; each connection keeps at most MAX_PREPARED of them. Off through a
 * pooler in transaction mode (`pooled` above), where a connection is not one server session.
 */
function named(prepared: Set<string>, first: unknown, second: unknown): unknown {
  const config = first as { text?: unknown; name?: unknown; values?: unknown; submit?: unknown } | undefined;
  if (!config || typeof config !== 'object' || typeof config.text !== 'string' || config.name !== undefined) {
    return first;
  }
  if (typeof config.submit === 'function' || config.text.length > MAX_PREPARED_TEXT) return first;
  const values = Array.isArray(second) ? second : config.values;
  if (!Array.isArray(values) || values.length === 0) return first;
  const name = nameOf(config.text);
  if (!prepared.has(name)) {
    if (prepared.size >= MAX_PREPARED) return first;
    prepared.add(name);
  }
  return { ...config, name };
}

/** Statement names by text: hashing the same few texts at every call cost more than a lookup. */
const names = new Map<string, string>();
/** Texts whose name is remembered at most; past it the cache starts over (texts are few, this is a bound). */
const MAX_NAMES = 5_000;

function nameOf(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    if (names.size >= MAX_NAMES) names.clear();
    name = `s${createHash('sha1').update(text).digest('base64url')}`;
    names.set(text, name);
  }
  return name;
}

/**
 * Ends a connection at once: every query on it fails now, PostgreSQL rolls back its open transaction when it sees
 * the connection go, and the pool discards the client when it is released.
 */
function cut(client: pg.Client, reason: string): void {
  const { connection } = client as unknown as { connection?: { stream?: Socket } };
  connection?.stream?.destroy(new DatabaseUnavailableError(reason));
}

/** A client checked out longer than `ms` (a transaction that runs too long, or waits on a frozen server) is cut. */
function boundCheckouts(pool: pg.Pool, ms: number): void {
  if (!ms) return;
  const timers = new WeakMap<pg.PoolClient, NodeJS.Timeout>();
  pool.on('acquire', (client) => {
    const timer = setTimeout(() => cut(client, `a transaction ran past ${ms} ms`), ms);
    timer.unref();
    timers.set(client, timer);
  });
  pool.on('release', (_err, client) => {
    clearTimeout(timers.get(client));
    timers.delete(client);
  });
}

/** How long closing waits for connections to say goodbye before it cuts them. */
const END_GRACE_MS = 3_000;

/**
 * Ends the pool. A connection to a frozen or half-gone server may never finish its goodbye, and waiting for it would
 * keep the process from stopping: past a grace period such connections are cut.
 */
async function endPool(pool: pg.Pool): Promise<void> {
  const ended = pool.end();
  const graceful = await Promise.race([ended.then(() => true), sleep(END_GRACE_MS).then(() => false)]);
  if (graceful) return;
  for (const client of (pool as unknown as { _clients: pg.Client[] })._clients) cut(client, 'the server is stopping');
  await Promise.race([ended, sleep(END_GRACE_MS)]);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * Migrations on a connection of their own, outside the pool's bounds: waiting for another instance's migration,
 * or a long one, is no reason to fail. Two instances starting at once must not both migrate: an advisory lock.
 */
async function migrateUnderLock(opts: PostgresOptions, folder: string, onError: (err: Error) => void): Promise<void> {
  const client = new pg.Client({
    connectionString: opts.directUrl ?? opts.url,
    connectionTimeoutMillis: opts.connectTimeoutMs,
    keepAlive: true,
  });
  client.on('error', onError);
  await client.connect();
  try {
    await client.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
    await migrate(drizzle(client), { migrationsFolder: folder });
    await client.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`);
  } finally {
    await client.end().catch(() => {});
  }
}
