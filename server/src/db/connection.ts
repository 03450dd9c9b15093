import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import lockfile from 'proper-lockfile';
import pg from 'pg';

/** Queries are SQL (drizzle's `sql`) or the query builder over `*.tables.ts`; no relational query API is used. */
export type Db = PgDatabase<PgQueryResultHKT>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Anything a query can run on: the database or an open transaction. */
export type Executor = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

const INT8 = 20;
const NUMERIC = 1700;
/** Cents fit in a double up to 2^53, about 90 trillion dollars: every driver hands back plain numbers. */
const toNumber = (v: string) => Number(v);

export class DataDirLockedError extends Error {
  constructor(dir: string) {
    super(
      `The embedded database in ${dir} is in use by another process (is the server running?). ` +
        'Stop that process first, or point DATABASE_URL at PostgreSQL.',
    );
  }
}

export interface OpenOptions {
  databaseUrl?: string | undefined;
  /** Directory of the embedded database; ignored with databaseUrl. */
  dataDir?: string;
  /** Embedded database in memory (tests). */
  memory?: boolean;
  poolSize?: number;
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl, opts.poolSize ?? 20) : openPglite(opts);
}

async function openPostgres(url: string, max: number): Promise<Database> {
  // drizzle hands pg its own per-query parsers built on the global ones, so the global table is where this must go.
  pg.types.setTypeParser(INT8, toNumber);
  pg.types.setTypeParser(NUMERIC, toNumber);
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on('error', () => {
    /* an idle client lost its connection; the pool replaces it */
  });
  const db = drizzlePg(pool) as unknown as Db;
  // Two instances starting at once must not both migrate: hold an advisory lock on one connection.
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(727274)');
    await migratePg(drizzlePg(client), { migrationsFolder });
    await client.query('SELECT pg_advisory_unlock(727274)');
  } finally {
    client.release();
  }
  return { db, kind: 'postgres', close: () => pool.end() };
}

async function openPglite(opts: OpenOptions): Promise<Database> {
  let release: (() => Promise<void>) | undefined;
  let dataPath: string | undefined;
  if (!opts.memory) {
    const dir = opts.dataDir ?? './data';
    fs.mkdirSync(dir, { recursive: true });
    try {
      release = await lockfile.lock(dir, { lockfilePath: path.join(dir, '.lock'), stale: 15_000, update: 5_000 });
    } catch (err) {
      if ((err as { code?: string }).code === 'ELOCKED') throw new DataDirLockedError(dir);
      throw err;
    }
    dataPath = path.join(dir, 'pglite');
  }
  const client = new PGlite(dataPath, { parsers: { [INT8]: toNumber, [NUMERIC]: toNumber } });
  await client.waitReady;
  const db = drizzlePglite(client) as unknown as Db;
  await migratePglite(drizzlePglite(client), { migrationsFolder });
  return {
    db,
    kind: 'pglite',
    async close() {
      await client.close();
      await release?.();
    },
  };
}

/** Rows of a raw SQL query on either driver. */
export async function rows<T>(exec: Executor, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await exec.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
