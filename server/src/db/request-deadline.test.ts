import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase, missingRealServices, realPostgresUrl } from '../test/databases';
import { makeUser, signIn } from '../test/factories';
import { startTestApp, type TestApp, type TestClient } from '../test/harness';
import { startTcpProxy, type TcpProxy } from '../test/tcp-proxy';

/**
 * A frozen database fails a request within 10 s with the default settings (issue 22, item 23): a statement used to
 * wait its 10 s statement timeout plus 1 s of silence before its connection was cut, so a request waited 11 s. No
 * bound is configured here: these are the defaults of server/src/config.ts (docs/decisions.md, "Finish (issue 22)").
 */
const skip = missingRealServices({ postgres: true });

const REQUEST_BOUND_MS = 10_000;

describe.skipIf(skip)('a frozen PostgreSQL, with the default bounds', () => {
  let proxy: TcpProxy;
  let database: { url: string; drop(): Promise<void> };
  let t: TestApp;
  let client: TestClient;

  beforeAll(async () => {
    database = await freshPostgresDatabase(realPostgresUrl!);
    const real = new URL(database.url);
    proxy = await startTcpProxy({ host: real.hostname, port: Number(real.port || 5432) });
    t = await startTestApp({ config: { databaseUrl: proxy.urlFor(database.url) } });
    client = await signIn(t, (await makeUser(t.ctx)).id);
  });
  afterAll(async () => {
    await proxy?.restore();
    await t?.close();
    await proxy?.close();
    await database?.drop();
  });

  /** Each call's status and how long it took, or 'hung' past twice the bound. */
  async function timed(call: () => Promise<{ statusCode: number }>) {
    const started = Date.now();
    const outcome = await Promise.race([call(), sleep(2 * REQUEST_BOUND_MS, 'hung' as const)]);
    return { status: outcome === 'hung' ? 'hung' : outcome.statusCode, ms: Date.now() - started };
  }

  it('answers 503 within 10 s, on open connections and on new ones, and recovers', async () => {
    expect((await client.get('/api/user/profile')).statusCode).toBe(200);
    proxy.freeze();
    // First on the pool's open connections (a statement with no answer), then on new ones (a connect with none).
    for (const round of ['open connections', 'new connections']) {
      const outcomes = await Promise.all([
        timed(() => client.get('/api/user/profile')),
        timed(() => client.post('/api/payment/checkout', { amount: 100, url: '/' })),
        timed(() => client.get('/api/health')),
      ]);
      for (const o of outcomes) {
        expect(o.status, round).toBe(503);
        expect(o.ms, round).toBeLessThan(REQUEST_BOUND_MS);
      }
    }
    await proxy.restore();
    for (const deadline = Date.now() + 30_000; (await client.get('/api/health')).statusCode !== 200; await sleep(200)) {
      if (Date.now() > deadline) throw new Error('no recovery after the freeze');
    }
    expect((await client.get('/api/user/profile')).statusCode).toBe(200);
  });
});
