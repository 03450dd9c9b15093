import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from './connection';
import { ReadRouting } from './read-routing';

/** A server whose answers the test sets: the replica's lag query answers `{lag}`, a down server never answers. */
function server(name: string) {
  const s = {
    name,
    up: true,
    lag: 0 as number | null,
    db: undefined as unknown as Db,
  };
  s.db = {
    execute: () => (s.up ? Promise.resolve({ rows: [{ lag: s.lag }] }) : Promise.reject(new Error(`${name} is down`))),
  } as unknown as Db;
  return s;
}

describe('where reads go with a read replica (DATABASE_READ_URL)', () => {
  let routing: ReadRouting | undefined;
  afterEach(() => routing?.stop());

  async function start(replica: ReturnType<typeof server> | undefined, primary = server('primary')) {
    routing = new ReadRouting({ primary: primary.db, replica: replica?.db, maxLagMs: 5000, checkEveryMs: 60_000 });
    await routing.start();
    return { routing, primary };
  }
  const recheck = (r: ReadRouting) => (r as unknown as { check(): Promise<void> }).check();

  it('sends every read to the primary when there is no replica', async () => {
    const { routing: r, primary } = await start(undefined);
    expect(r.lagTolerant()).toBe(primary.db);
    expect(r.current()).toBe(primary.db);
    expect(r.servers()).toEqual([primary.db]);
  });

  it('sends lag-tolerant reads to a replica that keeps up, and the rest to the primary', async () => {
    const replica = server('replica');
    const { routing: r, primary } = await start(replica);
    expect(r.lagTolerant()).toBe(replica.db);
    expect(r.current()).toBe(primary.db);

    replica.lag = 6000; // past DB_READ_MAX_LAG_MS
    await recheck(r);
    expect(r.lagTolerant()).toBe(primary.db);

    replica.lag = 0;
    await recheck(r);
    replica.lag = null; // it stopped streaming: behind by at most the time since, so it serves on for a while
    await recheck(r);
    expect(r.lagTolerant()).toBe(replica.db);

    replica.lag = 0;
    replica.up = false;
    await recheck(r);
    expect(r.lagTolerant()).toBe(primary.db);
  });

  it('does not send reads to a replica that never streamed while the primary answers', async () => {
    const replica = server('replica');
    replica.lag = null;
    const { routing: r, primary } = await start(replica);
    expect(r.lagTolerant()).toBe(primary.db);
  });

  it('keeps the site readable from the replica while the primary is down, whatever its lag', async () => {
    const replica = server('replica');
    const { routing: r, primary } = await start(replica);
    primary.up = false;
    replica.lag = null;
    await recheck(r);
    expect(r.lagTolerant()).toBe(replica.db);
    expect(r.current()).toBe(replica.db);
    expect(r.status).toMatchObject({ primaryUp: false, replicaUp: true });

    primary.up = true;
    await recheck(r);
    expect(r.current()).toBe(primary.db);
  });
});
