import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase, missingRealServices, realPostgresUrl } from '../test/databases';
import { migrationsFolder, sqlRows } from './connection';
import { openPostgres } from './postgres';

/**
 * A transaction's BEGIN travels with its first statement when that statement has no parameters (`plainStatement`
 * in postgres.ts). Whatever the first statement, the transaction must still be one: its lock held to the end, its
 * writes undone by a rollback, its answers those of its own statements.
 */
const skip = missingRealServices({ postgres: true });

describe.skipIf(skip)('a BEGIN held for the first statement (PostgreSQL)', () => {
  let database: { url: string; drop(): Promise<void> };
  let pg: Awaited<ReturnType<typeof openPostgres>>;

  beforeAll(async () => {
    database = await freshPostgresDatabase(realPostgresUrl!);
    pg = await openPostgres({
      url: database.url,
      poolSize: 2,
      connectTimeoutMs: 2000,
      statementTimeoutMs: 5000,
      transactionTimeoutMs: 10_000,
      migrationsFolder,
    });
    await pg.db.execute(sql`CREATE TABLE held_begin (n int)`);
  });
  afterAll(async () => {
    await pg?.close();
    await database?.drop();
  });

  const lockHeldElsewhere = async () =>
    (
      await sqlRows(
        pg.db,
        sql<{
          n: number;
        }>`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND classid = 4242 AND objid = 7`,
      )
    )[0]!.n;

  it('keeps a lock taken by the first statement until the transaction ends', async () => {
    const during = await pg.db.transaction(async (tx) => {
      const [locked] = await sqlRows(
        tx,
        sql<{ locked: string }>`SELECT pg_advisory_xact_lock(4242, 7)::text AS locked`,
      );
      expect(locked).toEqual({ locked: '' });
      return lockHeldElsewhere();
    });
    expect(during).toBe(1);
    expect(await lockHeldElsewhere()).toBe(0);
  });

  it('undoes a first statement without parameters when the transaction fails', async () => {
    await expect(
      pg.db.transaction(async (tx) => {
        await tx.execute(sql.raw(`INSERT INTO held_begin VALUES (1)`));
        await tx.execute(sql`INSERT INTO held_begin VALUES (${2})`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await sqlRows(pg.db, sql`SELECT n FROM held_begin`)).toEqual([]);
  });

  it('runs a transaction whose first statement has parameters, and one that sends nothing', async () => {
    await pg.db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO held_begin VALUES (${3})`);
      await tx.execute(sql.raw(`INSERT INTO held_begin VALUES (4)`));
    });
    await pg.db.transaction(async () => undefined);
    expect(await sqlRows(pg.db, sql`SELECT n FROM held_begin ORDER BY n`)).toEqual([{ n: 3 }, { n: 4 }]);
  });
});
