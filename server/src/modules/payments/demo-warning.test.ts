import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { MemoryMailer } from '../../mail/mailer';
import { createServer } from '../../server';
import { makeUser, signIn } from '../../test/factories';
import { startTestApp } from '../../test/harness';

/** The demo provider credits balance for free: it is the zero-setup default, and it says so plainly. */

describe('the demo checkout page', () => {
  it('carries a banner saying no real money moves, on the open, ended and missing pages', async () => {
    const t = await startTestApp();
    try {
      const browser = await signIn(t, (await makeUser(t.ctx)).id);
      const { url } = (await browser.post('/api/payment/checkout', { amount: 500 })).json<{ url: string }>();
      const banner = /<p class="demo-banner" role="alert">DEMO PAYMENTS: no card is charged and no real money moves\./;
      const page = new URL(url).pathname;
      expect((await browser.get(page)).body).toMatch(banner);
      await browser.post(`/api/payment/demo/${page.split('/').pop()}/cancel`, {});
      expect((await browser.get(page)).body).toMatch(banner);
      expect((await t.client().get(page)).body).toMatch(banner);
    } finally {
      await t.close();
    }
  });
});

/** Starts a server on the embedded database in memory and answers the log lines of warn level and above. */
async function startupWarnings(env: Record<string, string>): Promise<string[]> {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const config = loadConfig({ PORT: '3000', ...env }, { serveWeb: false, redisUrl: undefined, databaseUrl: undefined });
  const server = await createServer(config, {
    memory: true,
    mailer: new MemoryMailer(),
    logger: { level: 'warn', stream },
  });
  await server.close();
  return lines.map((l) => (JSON.parse(l) as { msg: string }).msg);
}

describe('the log at start', () => {
  it('warns that the demo provider is active', async () => {
    const warnings = await startupWarnings({});
    expect(warnings.filter((m) => /DEMO provider is active/.test(m))).toHaveLength(1);
  });

  it('says nothing of the sort with Stripe configured', async () => {
    const warnings = await startupWarnings({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' });
    expect(warnings.filter((m) => /DEMO/.test(m))).toEqual([]);
  });
});

describe('PAYMENTS', () => {
  it('keeps today’s choice when unset or demo: Stripe with both keys, else the demo provider', () => {
    const keys = { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' };
    expect(loadConfig({}).stripe).toBeUndefined();
    expect(loadConfig(keys).stripe?.secretKey).toBe('sk_test_x');
    expect(loadConfig({ PAYMENTS: 'demo' }).stripe).toBeUndefined();
    expect(loadConfig({ PAYMENTS: 'stripe', ...keys }).stripe?.secretKey).toBe('sk_test_x');
  });

  it('=stripe refuses to start without the Stripe keys, naming what is missing', () => {
    expect(() => loadConfig({ PAYMENTS: 'stripe' })).toThrow(
      'PAYMENTS=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET to be set',
    );
    expect(() => loadConfig({ PAYMENTS: 'stripe', STRIPE_SECRET_KEY: 'sk_live_x' })).toThrow(
      'PAYMENTS=stripe needs STRIPE_WEBHOOK_SECRET to be set',
    );
    expect(() => loadConfig({ PAYMENTS: 'card' })).toThrow('PAYMENTS must be "stripe" or "demo", got "card"');
  });

  it('=stripe without a key stops `npm start` with one clear line and exit code 1', () => {
    const root = path.resolve(import.meta.dirname, '../../../..');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wall-payments-'));
    try {
      const {
        DATABASE_URL: _db,
        REDIS_URL: _redis,
        STRIPE_SECRET_KEY: _k,
        STRIPE_WEBHOOK_SECRET: _h,
        ...env
      } = process.env;
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
        cwd: root,
        env: { ...env, PAYMENTS: 'stripe', DATA_DIR: dataDir, PORT: '0', SERVE_WEB: '0', SEED_DEMO: '0' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status).toBe(1);
      expect(run.stderr.trim()).toBe('PAYMENTS=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET to be set');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
