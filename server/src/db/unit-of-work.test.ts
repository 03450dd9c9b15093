import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { liveEvent, type LiveEvent } from '../../../common/live';
import { freshPostgresDatabase, missingRealServices, realPostgresUrl } from '../test/databases';
import { openDatabase, sqlRows, type Db, type Tx } from './connection';
import { audience, transact, type Work } from './unit-of-work';

/**
 * The one way out for live events (docs/ARCHITECTURE.md "Live events"): held until the commit, then handed over in
 * the order raised, to the bus or, for `thisInstance`, to this instance's hub; never waited on.
 */
function setup(opts: { send?: (event: LiveEvent) => Promise<void> } = {}) {
  const bus: LiveEvent[] = [];
  const hub: LiveEvent[] = [];
  const failed: LiveEvent[] = [];
  let committed = false;
  // A database whose transaction runs the function and then commits; a throw rolls it back.
  const db = {
    transaction: async <T>(fn: (tx: Tx) => Promise<T>): Promise<T> => {
      const result = await fn({} as Tx);
      committed = true;
      return result;
    },
  } as unknown as Db;
  const run = <T>(fn: (work: Work) => Promise<T>) =>
    transact(
      {
        db,
        bus: { send: opts.send ?? (async (event) => void bus.push(event)) },
        hub: { deliver: (event) => hub.push(event) },
        onPublishError: (_err, event) => failed.push(event),
      },
      fn,
    );
  return { run, bus, hub, failed, committed: () => committed };
}

describe('the unit of work', () => {
  it('hands the events over after the commit, in the order raised, each to its audience', async () => {
    const s = setup();
    await s.run(async (work) => {
      work.emit('chat', 'newMessagePrice', { newPrice: 3 });
      work.emit('balance', 'update', { value: 5 }, audience.user(7));
      work.emit('control', 'sessionEnded', { session: 'abc' }, audience.session(7, 'abc'));
      work.emit('market', 'marketItem', {} as never, audience.allExcept([7, 8]));
      work.emit('notification', 'missedMessage', { value: 2 }, audience.thisInstance(audience.user(9)));
      expect(s.bus).toEqual([]);
      expect(s.committed()).toBe(false);
    });
    expect(s.bus).toEqual([
      { ch: 'chat', t: 'newMessagePrice', m: { newPrice: 3 } },
      { ch: 'balance', t: 'update', m: { value: 5 }, userId: 7 },
      { ch: 'control', t: 'sessionEnded', m: { session: 'abc' }, userId: 7, session: 'abc' },
      { ch: 'market', t: 'marketItem', m: {}, except: [7, 8] },
    ]);
    // Only this instance knows who follows `notification` here: such an event never goes on the bus.
    expect(s.hub).toEqual([liveEvent('notification', 'missedMessage', { value: 2 }, audience.user(9))]);
  });

  it('hands over nothing when the transaction rolls back', async () => {
    const s = setup();
    await expect(
      s.run(async (work) => {
        work.emit('balance', 'update', { value: 5 }, audience.user(7));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect([...s.bus, ...s.hub]).toEqual([]);
  });

  it('never waits on the bus, and reports a send that failed with its event', async () => {
    const never = setup({ send: () => new Promise(() => {}) });
    await expect(never.run(async (work) => work.emit('chat', 'newMessagePrice', { newPrice: 3 }))).resolves.toBe(
      undefined,
    );
    const refused = setup({ send: async () => Promise.reject(new Error('Redis away')) });
    await refused.run(async (work) => work.emit('chat', 'newMessagePrice', { newPrice: 3 }));
    await new Promise((r) => setImmediate(r));
    expect(refused.failed).toEqual([{ ch: 'chat', t: 'newMessagePrice', m: { newPrice: 3 } }]);
  });
});

describe('a transaction chosen as a deadlock victim', () => {
  const deadlock = () => Object.assign(new Error('deadlock detected'), { cause: { code: '40P01' } });

  it('runs again, handing over only the events of the run that committed', async () => {
    const bus: LiveEvent[] = [];
    let runs = 0;
    const db = {
      transaction: async <T>(fn: (tx: Tx) => Promise<T>): Promise<T> => {
        const result = await fn({} as Tx);
        if (runs < 3) throw deadlock(); // PostgreSQL rolled the first two runs back
        return result;
      },
    } as unknown as Db;
    const answer = await transact({ db, bus: { send: async (e) => void bus.push(e) } }, async (work) => {
      runs += 1;
      work.emit('chat', 'newMessagePrice', { newPrice: runs });
      return runs;
    });
    expect(answer).toBe(3);
    expect(bus).toEqual([{ ch: 'chat', t: 'newMessagePrice', m: { newPrice: 3 } }]);
  });

  it('gives up after three runs, and never runs again after any other failure', async () => {
    for (const [failure, expectedRuns] of [
      [deadlock(), 3],
      [Object.assign(new Error('unique'), { code: '23505' }), 1],
    ] as const) {
      let runs = 0;
      const db = {
        transaction: async () => {
          runs += 1;
          throw failure;
        },
      } as unknown as Db;
      await expect(transact({ db, bus: { send: async () => {} } }, async () => 1)).rejects.toBe(failure);
      expect(runs).toBe(expectedRuns);
    }
  });
});

describe.skipIf(missingRealServices({ postgres: true }))('a deadlock on PostgreSQL', () => {
  it('two transactions taking two rows the other way round both commit: the victim runs again', async () => {
    const fresh = await freshPostgresDatabase(realPostgresUrl!);
    const opened = await openDatabase({ databaseUrl: fresh.url, poolSize: 2 });
    try {
      const db = opened.db;
      await db.execute(sql`CREATE TABLE rows_locked (id int PRIMARY KEY, n int NOT NULL DEFAULT 0)`);
      await db.execute(sql`INSERT INTO rows_locked VALUES (1), (2)`);
      const deps = { db, bus: { send: async () => {} } };
      let runs = 0;
      // Each takes its first row, waits until the other has taken its own, then asks for the other's.
      let taken = 0;
      const bothTaken = new Promise<void>((resolve) => {
        const check = setInterval(() => taken >= 2 && (clearInterval(check), resolve()), 5);
      });
      const crossing = (first: number, second: number) =>
        transact(deps, async (work) => {
          runs += 1;
          await work.tx.execute(sql`UPDATE rows_locked SET n = n + 1 WHERE id = ${first}`);
          taken += 1;
          await bothTaken;
          await work.tx.execute(sql`UPDATE rows_locked SET n = n + 1 WHERE id = ${second}`);
        });
      await Promise.all([crossing(1, 2), crossing(2, 1)]);
      expect(runs).toBe(3); // one was rolled back by PostgreSQL and ran again
      const rows = await sqlRows(db, sql<{ n: number }>`SELECT n FROM rows_locked ORDER BY id`);
      expect(rows.map((r) => r.n)).toEqual([2, 2]);
    } finally {
      await opened.close();
      await fresh.drop();
    }
  });
});
