import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { InferSelectModel, SQL, Table } from 'drizzle-orm';
import { lockDataDir } from './data-dir-lock';
import { openMemoryPglite } from './memory-template';
import { openPostgres } from './postgres';

export { DataDirLockedError } from './data-dir-lock';

/** Queries are SQL (drizzle's `sql`) or the query builder over `*.tables.ts`; no relational query API is used. */
export type Db = PgDatabase<PgQueryResultHKT>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Anything a query can run on: the database or an open transaction. */
export type Executor = Db | Tx;

export interface Database {
  db: Db;
  /** A streaming replica for reads that tolerate lag (DATABASE_READ_URL); see `read-routing.ts`. */
  replica?: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

const INT8 = 20;
const NUMERIC = 1700;
/** Cents fit in a double up to 2^53, about 90 trillion dollars: every driver hands back plain numbers. */
const toNumber = (v: string) => Number(v);

export interface OpenOptions {
  databaseUrl?: string | undefined;
  /** PostgreSQL itself, when databaseUrl is a pooler in transaction mode (DATABASE_DIRECT_URL). */
  directUrl?: string | undefined;
  /** A streaming replica of it (DATABASE_READ_URL); opened without migrating, as it follows the primary. */
  readUrl?: string | undefined;
  /** Directory of the embedded database; ignored with databaseUrl. */
  dataDir?: string;
  /** Embedded database in memory (tests). */
  memory?: boolean;
  poolSize?: number;
  /** Bounds on PostgreSQL (DB_CONNECT_TIMEOUT_MS, DB_STATEMENT_TIMEOUT_MS, DB_TRANSACTION_TIMEOUT_MS); 0: none. */
  connectTimeoutMs?: number;
  statementTimeoutMs?: number;
  transactionTimeoutMs?: number;
  /** A PostgreSQL connection lost outside any query; never fatal, worth a log line. */
  onConnectionError?: (err: Error) => void;
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (!opts.databaseUrl) return openPglite(opts);
  const bounds = {
    poolSize: opts.poolSize ?? 20,
    connectTimeoutMs: opts.connectTimeoutMs ?? 5_000,
    statementTimeoutMs: opts.statementTimeoutMs ?? 10_000,
    transactionTimeoutMs: opts.transactionTimeoutMs ?? 15_000,
    onConnectionError: opts.onConnectionError,
  };
  const primary = await openPostgres({ ...bounds, url: opts.databaseUrl, directUrl: opts.directUrl, migrationsFolder });
  if (!opts.readUrl) return { ...primary, kind: 'postgres' };
  // The replica may be down at start: the pool connects on demand, and reads go to the primary meanwhile.
  const replica = await openPostgres({ ...bounds, url: opts.readUrl, migrationsFolder: undefined });
  return {
    db: primary.db,
    replica: replica.db,
    kind: 'postgres',
    async close() {
      await Promise.all([primary.close(), replica.close()]);
    },
  };
}

async function openPglite(opts: OpenOptions): Promise<Database> {
  let release: (() => Promise<void>) | undefined;
  let dataPath: string | undefined;
  if (!opts.memory) {
    const dir = opts.dataDir ?? './data';
    fs.mkdirSync(dir, { recursive: true });
    release = await lockDataDir(dir);
    dataPath = path.join(dir, 'pglite');
  }
  let client: PGlite;
  try {
    const options = { parsers: { [INT8]: toNumber, [NUMERIC]: toNumber } };
    const migrate = (c: PGlite) => migratePglite(drizzlePglite(c), { migrationsFolder });
    client = dataPath
      ? await PGlite.create(dataPath, options)
      : await openMemoryPglite(migrationsFolder, options, migrate);
    await migrate(client);
  } catch (err) {
    await release?.();
    throw err;
  }
  const db = drizzlePglite(client) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    async close() {
      await client.close();
      await release?.();
    },
  };
}

/**
 * A table's row as raw SQL reads it: the columns under their names in the database, typed as drizzle types them
 * (what `$inferSelect` is under the TypeScript names). Row types of raw queries are built from it (docs/decisions.md,
 * "Issue 23, item 2").
 */
export type SqlRow<T extends Table> = InferSelectModel<T, { dbColumnNames: true }>;
/** Some columns of a table, as raw SQL reads them. */
export type Columns<T extends Table, K extends keyof SqlRow<T>> = Pick<SqlRow<T>, K>;

/**
 * The rows of a raw SQL query on either driver, typed by the query itself: `sql<Columns<typeof table, 'id'>>` (plus,
 * for a computed column, the type of its expression). Simple reads use the query builder instead.
 */
export async function sqlRows<T>(exec: Executor, query: SQL<T>): Promise<NoInfer<T>[]> {
  const result = (await exec.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
