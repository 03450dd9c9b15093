import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase, missingRealServices, realPostgresUrl } from '../test/databases';
import { startTcpProxy, type TcpProxy } from '../test/tcp-proxy';
import { migrationsFolder } from './connection';
import { openPostgres } from './postgres';

/**
 * The pool gives every connection back, whatever the database did meanwhile: a transaction whose BEGIN never got
 * an answer must not keep its connection, or a few outages would leave the pool empty for good.
 */
const skip = missingRealServices({ postgres: true });

describe.skipIf(skip)('the PostgreSQL pool after failed transactions', () => {
  let proxy: TcpProxy;
  let database: { url: string; drop(): Promise<void> };

  beforeAll(async () => {
    database = await freshPostgresDatabase(realPostgresUrl!);
    const real = new URL(database.url);
    proxy = await startTcpProxy({ host: real.hostname, port: Number(real.port || 5432) });
  });
  afterAll(async () => {
    await proxy?.close();
    await database?.drop();
  });

  it('still has its one connection after BEGIN went unanswered three times', async () => {
    const pg = await openPostgres({
      url: proxy.urlFor(database.url),
      poolSize: 1,
      connectTimeoutMs: 1000,
      statementTimeoutMs: 300,
      transactionTimeoutMs: 3000,
      migrationsFolder,
    });
    try {
      for (let i = 0; i < 3; i++) {
        await pg.db.execute(sql`SELECT 1`); // an idle connection in the pool, then the server stops answering
        proxy.freeze();
        const failed = await pg.db
          .transaction(async (tx) => tx.execute(sql`SELECT 1`))
          .then(
            () => false,
            () => true,
          );
        expect(failed).toBe(true);
        await proxy.restore();
        await sleep(50);
      }
      const answer = await pg.db.transaction(async (tx) => tx.execute(sql`SELECT 42 AS n`));
      expect((answer as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(42);
    } finally {
      await pg.close();
    }
  });
});
