import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingRealServices, realRedisUrl } from '../../test/databases';
import { startTestApp, type TestApp } from '../../test/harness';
import { startTcpProxy, type TcpProxy } from '../../test/tcp-proxy';

/**
 * Sign-in counts its attempts in Redis when it is configured. With Redis out of reach an attempt cannot be counted,
 * so it is refused, plainly, as the service being briefly away (503), never as a crash of ours (500).
 */
const skip = missingRealServices({ redis: true });

describe.skipIf(skip)('sign-in while the rate-limit counters are out of reach', () => {
  let proxy: TcpProxy;
  let t: TestApp;

  beforeAll(async () => {
    const real = new URL(realRedisUrl!);
    proxy = await startTcpProxy({ host: real.hostname, port: Number(real.port || 6379) });
    t = await startTestApp({ config: { redisUrl: proxy.urlFor(realRedisUrl!), redisChannel: `t:${process.pid}` } });
  });
  afterAll(async () => {
    await proxy?.restore();
    await t?.close();
    await proxy?.close();
  });

  it('answers 503 with a plain message while Redis is away, and counts again once it is back', async () => {
    const login = () =>
      t.client().post('/api/auth/login/basic', { username: 'nobody_here', password: 'wrong-password' });
    expect((await login()).statusCode).toBe(400);
    await proxy.cut();
    const during = await login();
    expect(during.statusCode, during.body).toBe(503);
    expect(Object.keys(during.json())).toEqual(['message']);
    await proxy.restore();
    for (let i = 0; i < 50 && (await login()).statusCode !== 400; i++) await new Promise((r) => setTimeout(r, 200));
    expect((await login()).statusCode).toBe(400);
  });
});
