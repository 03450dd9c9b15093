import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { MemoryMailer } from '../../mail/mailer';
import { createServer, type RunningServer } from '../../server';
import { freshPostgresDatabase, missingRealServices, realPostgresUrl, realRedisUrl } from '../../test/databases';
import { TestClient } from '../../test/harness';

/**
 * Two instances behind one load balancer must not hand out two allowances: the sign-in throttle and the per-IP
 * limit count in Redis (REDIS_URL), or in PostgreSQL when there is no Redis.
 */

let seq = 0;
const name = () => `xi_${process.pid % 1000}_${++seq}`;

function twoInstances(withRedis: boolean) {
  const servers: RunningServer[] = [];
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const pgdb = await freshPostgresDatabase(realPostgresUrl!);
    drop = pgdb.drop;
    const config = loadConfig(
      { PORT: '3000' },
      {
        databaseUrl: pgdb.url,
        databaseDirectUrl: pgdb.directUrl,
        redisUrl: withRedis ? realRedisUrl : undefined,
        // Keys of this run's own, so parallel runs sharing one Redis never count each other's attempts.
        redisChannel: `wall:test:${process.pid}:${randomBytes(4).toString('hex')}`,
        serveWeb: false,
        authRateLimit: 3,
        accountLoginLimit: 3,
      },
    );
    // One after the other: both would migrate the same fresh database.
    for (let i = 0; i < 2; i++) servers.push(await createServer(config, { mailer: new MemoryMailer(), logger: false }));
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    await drop?.();
  });
  return servers;
}

function itHoldsAcrossInstances(servers: RunningServer[]) {
  const call = (i: number, ip: string, url: string, payload: object) =>
    new TestClient(servers[i]!).request({ method: 'POST', url, payload, remoteAddress: ip });

  it('throttles an account after 3 failed passwords in all, wherever they were tried', async () => {
    const username = name();
    const owner = { username, password: 'secret123', email: 'x@example.test', currentPath: '/' };
    expect((await call(0, '192.0.2.1', '/api/auth/register', owner)).statusCode).toBe(200);
    const guess = (i: number, ip: string) => call(i, ip, '/api/auth/login/basic', { username, password: 'guess1234' });
    expect((await guess(0, '203.0.113.1')).statusCode).toBe(400);
    expect((await guess(1, '203.0.113.2')).statusCode).toBe(400);
    expect((await guess(0, '203.0.113.3')).statusCode).toBe(400);
    expect((await guess(1, '203.0.113.4')).statusCode).toBe(429);
    expect((await guess(0, '203.0.113.5')).statusCode).toBe(429);
    // The owner, at home, on either instance, is not locked out.
    const home = await call(1, '192.0.2.1', '/api/auth/login/basic', { username, password: 'secret123' });
    expect(home.statusCode).toBe(200);
  });

  it('limits one address to 3 sign-in calls a minute across both instances', async () => {
    const attempt = (i: number) =>
      call(i, '198.51.100.77', '/api/auth/login/basic', { username: name(), password: 'guess1234' });
    const statuses = [(await attempt(0)).statusCode, (await attempt(1)).statusCode, (await attempt(0)).statusCode];
    expect(statuses).toEqual([400, 400, 400]);
    expect((await attempt(1)).statusCode).toBe(429);
    expect((await attempt(0)).statusCode).toBe(429);
  });
}

describe.skipIf(missingRealServices({ postgres: true, redis: true }))(
  'two instances sharing Redis (and PostgreSQL)',
  () => itHoldsAcrossInstances(twoInstances(true)),
);

describe.skipIf(missingRealServices({ postgres: true }))('two instances sharing PostgreSQL, no Redis', () =>
  itHoldsAcrossInstances(twoInstances(false)),
);
