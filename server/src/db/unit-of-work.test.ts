import { describe, expect, it } from 'vitest';
import { liveEvent, type LiveEvent } from '../../../common/live';
import type { Db, Tx } from './connection';
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
