import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../../common/live';
import { freshPostgresDatabase, missingRealServices, realPostgresUrl } from '../test/databases';
import { openDatabase, sqlRows, type Database } from './connection';
import { literal, transactCall } from './one-call';
import type { WorkDeps } from './unit-of-work';

/**
 * A one-call transaction (one-call.ts) on both drivers: the statement's answer, its events handed over only after
 * the commit, a failed statement undone and its connection fit for the next transaction, and literals that read
 * back exactly as written.
 */
const skipPostgres = missingRealServices({ postgres: true });

const drivers: {
  name: string;
  skip: boolean | string | undefined;
  open(): Promise<{ db: Database; drop(): Promise<void> }>;
}[] = [
  {
    name: 'embedded',
    skip: false,
    async open() {
      const db = await openDatabase({ memory: true });
      return { db, drop: () => db.close() };
    },
  },
  {
    name: 'PostgreSQL',
    skip: skipPostgres,
    async open() {
      const fresh = await freshPostgresDatabase(realPostgresUrl!);
      // One connection: a failed call must give it back fit for the next one.
      const db = await openDatabase({ databaseUrl: fresh.url, poolSize: 1 });
      return { db, drop: () => db.close().finally(() => fresh.drop()) };
    },
  },
];

describe.each(drivers)('a one-call transaction ($name)', ({ skip, open }) => {
  let opened: Awaited<ReturnType<typeof open>>;
  const sent: LiveEvent[] = [];
  let deps: WorkDeps;

  beforeAll(async () => {
    if (skip) return;
    opened = await open();
    deps = { db: opened.db.db, bus: { send: async (e) => void sent.push(e) } };
    await opened.db.db.execute(sql`CREATE TABLE one_call (n int CHECK (n >= 0))`);
  });
  afterAll(() => opened?.drop());

  it.skipIf(skip)('commits the statement, answers its rows and hands its events over after the commit', async () => {
    sent.length = 0;
    const answer = await transactCall<{ n: number }, number>(
      deps,
      'INSERT INTO one_call VALUES (1), (2) RETURNING n',
      (rows, events) => {
        expect(sent).toEqual([]); // nothing leaves before the caller has read the answer
        events.emit('balance', 'update', { value: rows.length }, { kind: 'user', userId: 7 });
        return rows.reduce((sum, r) => sum + r.n, 0);
      },
    );
    expect(answer).toBe(3);
    expect(sent).toEqual([expect.objectContaining({ ch: 'balance', t: 'update', m: { value: 2 }, userId: 7 })]);
    const [count] = await sqlRows(opened.db.db, sql<{ n: number }>`SELECT count(*)::int AS n FROM one_call`);
    expect(count!.n).toBe(2);
  });

  it.skipIf(skip)('undoes a statement that fails, raises nothing, and the next call works', async () => {
    sent.length = 0;
    await expect(
      transactCall(deps, 'INSERT INTO one_call VALUES (5), (-1)', (_rows, events) =>
        events.emit('balance', 'update', { value: 0 }, { kind: 'user', userId: 7 }),
      ),
    ).rejects.toSatisfy((err: Error) => /check constraint/.test(`${err.message} ${String(err.cause)}`));
    expect(sent).toEqual([]);
    const rows = await transactCall<{ n: number }, number[]>(deps, 'SELECT n FROM one_call ORDER BY n', (r) =>
      r.map((x) => x.n),
    );
    expect(rows).toEqual([1, 2]); // the 5 went with the failed statement
  });

  it.skipIf(skip)('writes strings as literals that read back exactly', async () => {
    const texts = ["it's", 'back\\slash', "\\'", 'ünï 😀', '', "'; DROP TABLE one_call; --"];
    for (const text of texts) {
      const [row] = await transactCall<{ t: string }, { t: string }[]>(
        deps,
        `SELECT ${literal(text)}::text AS t`,
        (r) => r,
      );
      expect(row!.t).toBe(text);
    }
    expect(literal(null)).toBe('NULL');
    expect(() => literal('a\0b')).toThrow(/NUL/);
  });
});
