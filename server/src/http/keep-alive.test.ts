import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formData } from '../modules/pictures/test-helpers';
import { makeUser, signIn } from '../test/factories';
import { startTestApp, type TestApp } from '../test/harness';
import { agentCall } from '../test/raw-http';

/**
 * A refused request leaves its connection usable (issue 22, item 19): when an answer goes out before the body was
 * read to its end, the rest of the body is read and dropped, so the next request on that keep-alive connection is
 * answered. Over real HTTP with a keep-alive agent of one socket, as a browser reuses its connections.
 */

let t: TestApp;
let base: string;
let cookie: string;
beforeAll(async () => {
  t = await startTestApp();
  const client = await signIn(t, (await makeUser(t.ctx, { balance: 1000 })).id);
  cookie = client.cookieHeader();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

const UPLOAD = '/api/payment/checkout-with-image-upload';

function uploadForm(fields: Record<string, string>, fileBytes: number) {
  const form = formData(fields, { filename: 'a.jpg', contentType: 'image/jpeg', data: randomBytes(fileBytes) });
  return { headers: { ...form.headers, 'content-length': String(form.payload.length) }, body: form.payload };
}

describe('after a refused request, the same connection', () => {
  const cases: [string, () => { headers: Record<string, string>; body: Buffer | string }, number][] = [
    ['a NUL in a field before a 300,000-byte file', () => uploadForm({ amount: '100\u0000' }, 300_000), 400],
    ['a file over the size limit', () => uploadForm({ amount: '100' }, 4 * 1024 * 1024 + 200_000), 400],
    ['too many files', () => twoFiles(), 400],
    [
      'a JSON body on the upload',
      () => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify({ a: 'x'.repeat(300_000) }) }),
      415,
    ],
  ];

  it.each(cases)('answers the next request after %s', async (_what, make, status) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const { headers, body } = make();
      const refused = await agentCall(agent, base + UPLOAD, {
        method: 'POST',
        headers: { origin: base, cookie, ...headers },
        body,
      });
      expect(refused.status, refused.body).toBe(status);
      const started = Date.now();
      const next = await agentCall(agent, `${base}/api/health`, { timeoutMs: 5_000 });
      expect(next.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      agent.destroy();
    }
  });
});

function twoFiles() {
  const one = { filename: 'a.jpg', contentType: 'image/jpeg', data: randomBytes(200_000) };
  const form = formData({ amount: '100' }, one);
  const boundary = form.headers['content-type']!.split('boundary=')[1]!;
  const extra = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="b.jpg"\r\n`),
    Buffer.from('Content-Type: image/jpeg\r\n\r\n'),
    randomBytes(200_000),
    Buffer.from('\r\n'),
  ]);
  const closing = Buffer.from(`--${boundary}--\r\n`);
  const body = Buffer.concat([form.payload.subarray(0, form.payload.length - closing.length), extra, closing]);
  return { headers: { ...form.headers, 'content-length': String(body.length) }, body };
}
