import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

// The config is read by the runner and again by each worker: values made here are passed on through the env.
// A free port unless E2E_PORT says otherwise, so two runs on one machine never meet.
const freePort = () =>
  execFileSync(process.execPath, [
    '-e',
    "const s = require('net').createServer(); s.listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); });",
  ])
    .toString()
    .trim();
const PORT = Number(process.env.E2E_PORT ?? freePort());
process.env.E2E_PORT = String(PORT);
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'wall-e2e-'));
process.env.E2E_RUN_NAME ??= new Date().toISOString().replace(/[:.]/g, '-');

const baseURL = `http://localhost:${PORT}`;
const chromium = {
  executablePath: '/usr/bin/chromium',
  // The system browser only; never a downloaded one (docs/product.md#operations).
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

export default defineConfig({
  testDir: 'e2e',
  outputDir: path.join('test-results', process.env.E2E_RUN_NAME),
  fullyParallel: false,
  workers: 1,
  // CI shares 2 cores between the server, PostgreSQL and Chromium: one retry, and the report names any flaky test.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: 'list',
  use: {
    baseURL,
    launchOptions: chromium,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    // The service worker stays out of the way of every test that is not about it (their route interceptions and
    // network checks see the page's own requests); e2e/pwa.spec.ts and e2e/push-settings.spec.ts let it in.
    serviceWorkers: 'block',
  },
  projects: [
    { name: 'desktop', use: { browserName: 'chromium', viewport: { width: 1280, height: 800 } } },
    {
      name: 'phone',
      use: { browserName: 'chromium', viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true },
      // The tenant test drives its own browser at desktop width. The words test reads what every screen says, which
      // a phone's layout does not change (its bar's labels are in the layout test); it opens the desktop bubbles.
      testIgnore: /(tenant|words)\.spec\.ts/,
    },
  ],
  webServer: {
    command: 'node scripts/start.mjs',
    url: `${baseURL}/api/health`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR,
      SEED_DEMO: '0',
      PUBLIC_URL: baseURL,
      CASH_HOSTS: `localhost:${PORT},127.0.0.1:${PORT}`,
      AUTH_RATE_LIMIT: '10000',
      ACCOUNT_LOGIN_LIMIT: '10000',
      LOG_LEVEL: 'warn',
    },
  },
});
