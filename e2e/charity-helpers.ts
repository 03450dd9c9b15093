import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium, expect, type Browser, type Page, type TestInfo } from '@playwright/test';

/** A host outside CASH_HOSTS is a charity tenant; the browser reaches the server under this name. */
export const CHARITY_HOST = 'green.test';

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/**
 * A server of the charity spec's own, on an embedded database of its own. The admin command needs that database
 * unlocked, so the spec registers its admin, stops the server, grants with `npm run admin -- grant`, and starts it
 * again: exactly what an operator does. The client is the one the config's web server built.
 */
export class CharityServer {
  readonly dataDir = mkdtempSync(path.join(tmpdir(), 'wall-e2e-charity-'));
  port = 0;
  private child: ChildProcess | undefined;

  get url(): string {
    return `http://${CHARITY_HOST}:${this.port}`;
  }

  private env(): NodeJS.ProcessEnv {
    return {
      ...process.env,
      PORT: String(this.port),
      HOST: '127.0.0.1',
      DATA_DIR: this.dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      SEED_DEMO: '0',
      PUBLIC_URL: `http://localhost:${this.port}`,
      CASH_HOSTS: `localhost:${this.port},127.0.0.1:${this.port}`,
      AUTH_RATE_LIMIT: '10000',
      ACCOUNT_LOGIN_LIMIT: '10000',
      LOG_LEVEL: 'warn',
    };
  }

  async start(): Promise<void> {
    if (!this.port) this.port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
      env: this.env(),
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    this.child = child;
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the charity test server exited with ${child.exitCode}`);
      try {
        if ((await fetch(`http://127.0.0.1:${this.port}/api/health`)).ok) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error('the charity test server did not start');
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }

  /** Stops the server and removes its database. */
  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** `npm run admin -- grant NAME` against this server's database (the server must be stopped). */
  async grantAdmin(username: string): Promise<void> {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'server/src/admin/cli.ts', 'grant', username],
      { env: this.env() },
    );
    expect(stdout).toContain('is now an administrator');
  }

  /** Registers a user straight to the server (any host registers). */
  async register(username: string, password: string): Promise<void> {
    const res = await fetch(`http://127.0.0.1:${this.port}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password, email: `${username}@example.com`, currentPath: '/' }),
    });
    expect(res.status, await res.text()).toBe(200);
  }
}

/** The system Chromium with the charity host name resolving to this machine. */
export function launchCharityBrowser(info: TestInfo): Promise<Browser> {
  const launch = info.project.use.launchOptions!;
  return chromium.launch({
    ...launch,
    args: [...(launch.args ?? []), `--host-resolver-rules=MAP ${CHARITY_HOST} 127.0.0.1`],
  });
}

/** A page of its own at the project's width, failing the test on a page error or a console error. */
export async function charityPage(browser: Browser, info: TestInfo, baseURL: string, errors: string[]): Promise<Page> {
  const phone = info.project.name === 'phone';
  const context = await browser.newContext({
    baseURL,
    viewport: info.project.use.viewport ?? { width: 1280, height: 800 },
    hasTouch: phone,
    isMobile: phone,
  });
  const page = await context.newPage();
  page.on('pageerror', (err) => errors.push(`uncaught: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    if (/^Failed to load resource: the server responded with a status of 4\d\d/.test(msg.text())) return;
    // The free fetch of a port nothing listens on, provoked on purpose.
    if (/^Failed to load resource: net::ERR_CONNECTION_REFUSED/.test(msg.text())) return;
    // The browser's own note that an http origin other than localhost gets no Cross-Origin-Opener-Policy.
    if (/^The Cross-Origin-Opener-Policy header has been ignored/.test(msg.text())) return;
    errors.push(`console: ${msg.text()}`);
  });
  return page;
}

/** Signs the page's browser in (the host name resolves only in the browser, so the calls are made there). */
export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/close-the-window');
  const status = await page.evaluate(
    async ([u, p]) => {
      const res = await fetch('/api/auth/login/basic', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: u, password: p }),
      });
      await fetch('/api/user/profile');
      return res.status;
    },
    [username, password] as const,
  );
  expect(status).toBe(200);
  await page.evaluate(() => localStorage.setItem('isLoggedIn', 'true'));
}

/** Registers a new user in the page's browser and signs it in. */
export async function signUpThere(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/close-the-window');
  const status = await page.evaluate(
    async ([u, p]) => {
      const res = await fetch('/api/auth/register', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: u, password: p, email: `${u}@example.com`, currentPath: '/' }),
      });
      await fetch('/api/user/profile');
      return res.status;
    },
    [username, password] as const,
  );
  expect(status).toBe(200);
  await page.evaluate(() => localStorage.setItem('isLoggedIn', 'true'));
}

export const shot = (project: string, name: string) =>
  path.join('e2e-screenshots', process.env.E2E_RUN_NAME!, `${project}-charity-${name}.png`);
