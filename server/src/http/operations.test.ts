import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness';

let t: TestApp;
const METRICS = { authorization: 'Bearer metrics-token-for-tests' };
beforeAll(async () => {
  t = await startTestApp({ env: { METRICS_TOKEN: 'metrics-token-for-tests' } });
  // A route that fails the way a bug or a lost database connection would; added before the app is ready.
  t.app.get('/test/boom', { schema: { hide: true }, config: { auth: 'public' } }, async () => {
    throw new Error('connect ECONNREFUSED 10.0.0.7:5432 at Pool.connect (/srv/app/node_modules/pg/lib/pool.js)');
  });
  t.app.get('/test/boom-with-status', { schema: { hide: true }, config: { auth: 'public' } }, async () => {
    throw Object.assign(new Error('relation "secret_table" does not exist'), { statusCode: 503 });
  });
});
afterAll(() => t.close());

describe('request ids', () => {
  it('gives every answer an x-request-id, a fresh one per request', async () => {
    const a = await t.client().get('/api/health');
    const b = await t.client().get('/api/health');
    expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers['x-request-id']).not.toBe(a.headers['x-request-id']);
  });

  it('keeps a sane incoming x-request-id so a proxy can follow a request through the logs', async () => {
    const res = await t.client().get('/api/health', { 'x-request-id': 'edge-42.abc_DEF' });
    expect(res.headers['x-request-id']).toBe('edge-42.abc_DEF');
  });

  it('replaces an incoming x-request-id that could forge log lines', async () => {
    for (const bad of ['two words', 'x'.repeat(65), 'a\u0007b', '']) {
      const res = await t.client().get('/api/health', { 'x-request-id': bad });
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('carries the id on error answers too', async () => {
    const res = await t.client().get('/api/admin/am-i-worthy', { 'x-request-id': 'req-401' });
    expect(res.statusCode).toBe(401);
    expect(res.headers['x-request-id']).toBe('req-401');
  });
});

describe('security headers', () => {
  it('sends a content security policy and the usual hardening headers', async () => {
    const res = await t.client().get('/api/health');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).toContain("object-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['strict-transport-security']).toContain('max-age=');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});

describe('unexpected errors', () => {
  it('answers 500 with a plain message and the request id, never the error or its stack', async () => {
    const res = await t.client().get('/test/boom', { 'x-request-id': 'boom-1' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: 'Something went wrong on our side.', requestId: 'boom-1' });
    expect(res.body).not.toMatch(/ECONNREFUSED|node_modules|pool\.js|stack/i);
  });

  it('hides internals of a 5xx error that carries its own status, too', async () => {
    const res = await t.client().get('/test/boom-with-status');
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret_table');
  });

  it('still answers client mistakes with what went wrong', async () => {
    const res = await t.client().request({
      method: 'POST',
      url: '/api/admin/am-i-worthy',
      headers: { 'content-type': 'application/json' },
      payload: '{"broken json',
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });
});

describe('GET /metrics', () => {
  it('serves Prometheus text with request latencies per route and a count of 5xx answers', async () => {
    await t.client().get('/api/health');
    await t.client().get('/test/boom');
    const res = await t.client().get('/metrics', METRICS);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toContain('# TYPE http_request_duration_seconds histogram');
    expect(res.body).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/health",status="200"\} \d+/,
    );
    expect(res.body).toMatch(/http_server_errors_total\{route="\/test\/boom"\} [1-9]\d*/);
    expect(res.body).toContain('process_cpu_seconds_total');
  });
});
