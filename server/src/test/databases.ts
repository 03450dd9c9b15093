import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';

/**
 * Where tests find the real servers. The suite's own database follows DATABASE_URL (embedded when unset); tests
 * that must run on PostgreSQL and Redis (concurrency, cross-instance) use TEST_POSTGRES_URL / TEST_REDIS_URL, or
 * DATABASE_URL / REDIS_URL. Missing ones skip such a test locally with a printed reason, and fail it in CI.
 */
export const realPostgresUrl = process.env.TEST_POSTGRES_URL || process.env.DATABASE_URL || undefined;
export const realRedisUrl = process.env.TEST_REDIS_URL || process.env.REDIS_URL || undefined;
/**
 * PostgreSQL itself when the URLs above lead through PgBouncer in transaction mode (CI's pooled pass,
 * `scripts/with-pgbouncer.ts`): fresh databases are made there, and each gets its direct URL for migrations.
 */
const directBaseUrl = process.env.TEST_POSTGRES_DIRECT_URL || process.env.DATABASE_DIRECT_URL || undefined;

/** Debian's redis-server, which tests start processes of their own from (scripts/cluster/sentinel.ts). */
export const REDIS_SERVER = '/usr/bin/redis-server';

export function missingRealServices(needs: {
  postgres?: boolean;
  redis?: boolean;
  redisServer?: boolean;
}): string | undefined {
  const missing = [
    needs.postgres && !realPostgresUrl ? 'PostgreSQL (TEST_POSTGRES_URL or DATABASE_URL)' : undefined,
    needs.redis && !realRedisUrl ? 'Redis (TEST_REDIS_URL or REDIS_URL)' : undefined,
    needs.redisServer && !fs.existsSync(REDIS_SERVER) ? `${REDIS_SERVER} (apt-get install redis-server)` : undefined,
  ].filter(Boolean);
  if (missing.length === 0) return undefined;
  const reason = `needs ${missing.join(' and ')}`;
  if (process.env.CI) throw new Error(`This test cannot run in CI: it ${reason}.`);
  console.warn(`SKIPPED: this test ${reason}.`);
  return reason;
}

export interface FreshDatabase {
  url: string;
  /** The same database past the pooler, when the suite runs through one (else undefined: `url` is direct). */
  directUrl: string | undefined;
  drop(): Promise<void>;
}

/** A fresh, empty PostgreSQL database for one test file; `drop` removes it. */
export async function freshPostgresDatabase(baseUrl: string): Promise<FreshDatabase> {
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const adminUrl = directBaseUrl ?? baseUrl;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const named = (base: string) => {
    const url = new URL(base);
    url.pathname = `/${name}`;
    return url.toString();
  };
  return {
    url: named(baseUrl),
    directUrl: directBaseUrl ? named(directBaseUrl) : undefined,
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
