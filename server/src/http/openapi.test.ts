import { Validator } from '@seriousme/openapi-schema-validator';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../context';
import { startTestApp, type TestApp } from '../test/harness';
import { registerOpenApi } from './openapi';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

interface Operation {
  tags?: string[];
  parameters?: unknown[];
  requestBody?: { content: Record<string, { schema: object }> };
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
}

/** Every route the app serves, as "METHOD /path" in OpenAPI's {param} form. */
function servedRoutes(): string[] {
  const found: string[] = [];
  let prefix: string[] = [];
  for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([\s│]*)[├└]── (\S+)(?: \(([A-Z, ]+)\))?/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    prefix = [...prefix.slice(0, depth), m[2]!];
    if (!m[3]) continue;
    const path = prefix.join('').replace(/:(\w+)/g, '{$1}');
    for (const method of m[3].split(', ')) if (method !== 'HEAD') found.push(`${method} ${path}`);
  }
  return found;
}

/** Routes that are not part of the API: the web client's pages and assets, the live socket, the docs themselves. */
const NOT_API = [
  /^GET \/\*$/,
  /^GET \/assets\//,
  /^GET \/favicon\.svg$/,
  /^GET \/demo-checkout\//,
  /^GET \/api\/wss\//,
  /^GET \/api\/docs/,
  /^GET \/api\/openapi\.json$/,
];

describe('GET /api/openapi.json', () => {
  it('documents every route with its responses, and every body and parameter it takes', async () => {
    const res = await t.client().get('/api/openapi.json');
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ openapi: string; paths: Record<string, Record<string, Operation>> }>();
    expect(doc.openapi).toBe('3.1.0');

    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const api = servedRoutes().filter((r) => !NOT_API.some((re) => re.test(r)));
    expect(api.length).toBeGreaterThan(15);
    expect(documented.sort()).toEqual([...new Set(api)].sort());

    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const name = `${method.toUpperCase()} ${path}`;
        expect(op.tags, name).toHaveLength(1);
        const ok = Object.entries(op.responses).find(([status]) => status.startsWith('2'));
        expect(ok, `${name} has a 2xx answer`).toBeDefined();
        for (const param of path.match(/\{\w+\}/g) ?? []) {
          expect(JSON.stringify(op.parameters), `${name} documents ${param}`).toContain(`"${param.slice(1, -1)}"`);
        }
      }
    }
    // Two samples of what clients rely on: a body schema and an answer's fields.
    const fund = doc.paths['/api/payment/checkout-with-image-fund']!.post!;
    expect(JSON.stringify(fund.requestBody)).toContain('"imageId"');
    expect(JSON.stringify(fund.responses['200'])).toContain('"trendingScore"');
    expect(JSON.stringify(fund.responses['402'])).toContain('"missing"');
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate((await t.client().get('/api/openapi.json')).json());
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('names every operation, and declares its body and answers in the types they travel in', async () => {
    const doc = (await t.client().get('/api/openapi.json')).json<{
      paths: Record<string, Record<string, Operation & { summary?: string; operationId?: string }>>;
    }>();
    const ids: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(op.summary, `${method} ${path}`).toBeTruthy();
        expect(op.operationId, `${method} ${path}`).toBeTruthy();
        ids.push(op.operationId!);
      }
    }
    expect(new Set(ids).size).toBe(ids.length);

    const upload = doc.paths['/api/payment/checkout-with-image-upload']!.post!;
    const form = upload.requestBody!.content['multipart/form-data']!.schema as {
      properties: Record<string, { format?: string; pattern?: string }>;
      required: string[];
    };
    expect(Object.keys(form.properties).sort()).toEqual(['amount', 'file', 'title']);
    expect(form.properties.file!.format).toBe('binary');
    expect(form.required.sort()).toEqual(['amount', 'file']);
    expect(new RegExp(form.properties.amount!.pattern!).test('100')).toBe(true);
    expect(new RegExp(form.properties.amount!.pattern!).test('150')).toBe(false);

    for (const path of ['/api/user-transactions.csv', '/api/good-will/payments']) {
      expect(Object.keys(doc.paths[path]!.get!.responses['200']!.content!), path).toEqual(['text/csv']);
    }
    expect(Object.keys(doc.paths['/images/{key}']!.get!.responses['200']!.content!)).toEqual(['image/*']);
    const checkout = doc.paths['/api/payment/checkout']!.post!.requestBody!.content['application/json']!.schema;
    expect(checkout).toMatchObject({ properties: { amount: { type: 'integer', minimum: 1 } }, required: ['amount'] });
  });

  it('declares on every operation the answers it gives by its nature', async () => {
    const doc = (await t.client().get('/api/openapi.json')).json<{
      paths: Record<string, Record<string, Operation>>;
    }>();
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const statuses = Object.keys(op.responses);
        const name = `${method.toUpperCase()} ${path}`;
        expect(statuses, name).toEqual(expect.arrayContaining(['400', '503']));
        if (method === 'get') continue;
        expect(statuses, name).toEqual(expect.arrayContaining(['408', '413', '415']));
        if (path !== '/api/payment/stripe/webhook') expect(statuses, name).toContain('403');
      }
    }
    for (const path of ['/api/auth/login/basic', '/api/auth/register', '/api/payment/checkout-with-image-upload']) {
      expect(Object.keys(doc.paths[path]!.post!.responses), path).toContain('429');
    }
  });

  it('names on every operation the rule that guards it (x-authorization, http/authorization.ts)', async () => {
    const doc = (await t.client().get('/api/openapi.json')).json<{
      paths: Record<string, Record<string, { 'x-authorization'?: string }>>;
    }>();
    const rules = new Map<string, string | undefined>();
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops))
        rules.set(`${method.toUpperCase()} ${path}`, op['x-authorization']);
    }
    for (const [name, rule] of rules) {
      expect(rule, name).toMatch(/^(public|user|member|admin|[a-z]+\.[a-zA-Z]+|signed-by:[a-z-]+)$/);
    }
    expect(rules.get('GET /api/pictures')).toBe('public');
    expect(rules.get('GET /api/user/profile')).toBe('user');
    expect(rules.get('GET /api/admin/ledger-check')).toBe('admin');
    expect(rules.get('GET /api/payment/{id}')).toBe('payments.read');
    expect(rules.get('POST /api/charity-link/send')).toBe('charity.send');
  });

  it('refuses to start with an API route that does not say what it does or answers', async () => {
    const app = Fastify() as unknown as App;
    await registerOpenApi(app);
    expect(() => app.get('/api/forgotten', async () => ({ ok: true }))).toThrow(
      'GET /api/forgotten has no response schema',
    );
    expect(() =>
      app.get('/api/unnamed', { schema: { response: { 200: { type: 'object' } } } }, async () => ({})),
    ).toThrow('GET /api/unnamed has no summary or no operationId');
    app.get('/not-api', { schema: { hide: true } }, async () => 'fine');
    await app.close();
  });
});

describe('GET /api/docs', () => {
  it('serves the browsable page of the same document', async () => {
    const res = await t.client().get('/api/docs/');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('swagger-ui');
    expect((await t.client().get('/api/docs/json')).json().openapi).toBe('3.1.0');
  });
});
