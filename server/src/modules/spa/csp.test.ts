import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOT_SCRIPT_HASH } from '../../http/page-boot';
import { startTestApp, type TestApp } from '../../test/harness';

/** The policy as directive → sources, from a Content-Security-Policy header. */
function policyOf(header: unknown): Map<string, string[]> {
  expect(typeof header).toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

let t: TestApp;
beforeAll(async () => {
  // The real app's helmet settings and page routes (the page itself may be unbuilt: the headers are what count).
  t = await startTestApp({ config: { serveWeb: true } });
});
afterAll(() => t.close());

describe('Content-Security-Policy: the admin console’s free fetch', () => {
  it('lets the /admin-console page connect to any http(s) URL, and keeps every other directive as the site’s', async () => {
    const site = policyOf((await t.client().get('/')).headers['content-security-policy']);
    for (const url of ['/admin-console', '/admin-console/', '/admin-console?tab=fetch']) {
      const res = await t.client().get(url);
      const admin = policyOf(res.headers['content-security-policy']);
      expect(admin.get('connect-src'), url).toEqual([...site.get('connect-src')!, 'https:', 'http:']);
      for (const [name, sources] of site) if (name !== 'connect-src') expect(admin.get(name), name).toEqual(sources);
      expect([...admin.keys()].sort()).toEqual([...site.keys()].sort());
    }
  });

  it('keeps scripts, plugins, frames, base and forms locked on the console page', async () => {
    const admin = policyOf((await t.client().get('/admin-console')).headers['content-security-policy']);
    expect(admin.get('script-src')).toEqual(["'self'", BOOT_SCRIPT_HASH, 'https://accounts.google.com/gsi/client']);
    expect(admin.get('object-src')).toEqual(["'none'"]);
    expect(admin.get('frame-src')).toEqual([
      "'self'",
      'https://accounts.google.com/gsi/',
      'https://checkout.stripe.com',
    ]);
    expect(admin.get('frame-ancestors')).toEqual(["'self'"]);
    expect(admin.get('base-uri')).toEqual(["'self'"]);
    expect(admin.get('form-action')).toEqual(["'self'", 'https://checkout.stripe.com']);
    expect(admin.get('script-src-attr')).toEqual(["'none'"]);
  });

  it('every other page and the API keep connect-src to the site, its sockets and Google sign-in', async () => {
    for (const url of ['/', '/my-donations', '/admin-console-x', '/admin', '/api/health', '/api/charity-link/public']) {
      const policy = policyOf((await t.client().get(url)).headers['content-security-policy']);
      expect(policy.get('connect-src'), url).toEqual(["'self'", 'ws:', 'wss:', 'https://accounts.google.com/gsi/']);
    }
  });
});
