import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Where tests find the real servers. The suite's own database follows DATABASE_URL (embedded when unset); tests
 * that must run on PostgreSQL and Redis (concurrency, cross-instance) use TEST_POSTGRES_URL / TEST_REDIS_URL, or
 * DATABASE_URL / REDIS_URL. Missing ones skip such a test locally with a printed reason, and fail it in CI.
 */
export const realPostgresUrl = process.env.TEST_POSTGRES_URL || process.env.DATABASE_URL || undefined;
export const realRedisUrl = process.env.TEST_REDIS_URL || process.env.REDIS_URL || undefined;

export function missingRealServices(needs: { postgres?: boolean; redis?: boolean }): string | undefined {
  const missing = [
    needs.postgres && !realPostgresUrl ? 'PostgreSQL (TEST_POSTGRES_URL or DATABASE_URL)' : undefined,
    needs.redis && !realRedisUrl ? 'Redis (TEST_REDIS_URL or REDIS_URL)' : undefined,
  ].filter(Boolean);
  if (missing.length === 0) return undefined;
  const reason = `needs ${missing.join(' and ')}`;
  if (process.env.CI) throw new Error(`This test cannot run in CI: it ${reason}.`);
  console.warn(`SKIPPED: this test ${reason}.`);
  return reason;
}

/** A fresh, empty PostgreSQL database for one test file; `drop` removes it. */
export async function freshPostgresDatabase(baseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
