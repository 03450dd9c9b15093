import { describe, expect, it } from 'vitest';
import { startTestApp } from '../test/harness';

/** /metrics tells an outsider the routes, error counts and memory of the server: it needs METRICS_TOKEN. */

describe('GET /metrics', () => {
  it('does not exist without METRICS_TOKEN', async () => {
    const t = await startTestApp();
    try {
      const res = await t.client().get('/metrics');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Route GET:/metrics not found' });
      const withSomeToken = await t.client().get('/metrics', { authorization: 'Bearer anything' });
      expect(withSomeToken.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('answers 401 without the token or with a wrong one, and the figures with it', async () => {
    const t = await startTestApp({ env: { METRICS_TOKEN: 's3cret-metrics-token' } });
    try {
      for (const authorization of [undefined, 'Bearer wrong', 's3cret-metrics-token', 'Basic czNjcmV0', 'Bearer ']) {
        const res = await t.client().get('/metrics', authorization ? { authorization } : {});
        expect(res.statusCode, authorization).toBe(401);
        expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
        expect(res.body).not.toContain('process_cpu_seconds_total');
      }
      const ok = await t.client().get('/metrics', { authorization: 'Bearer s3cret-metrics-token' });
      expect(ok.statusCode).toBe(200);
      expect(ok.body).toContain('process_cpu_seconds_total');
    } finally {
      await t.close();
    }
  });
});
