import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';

/**
 * Every test fails on an uncaught error or a console error in the page. Network lines for 4xx answers a test
 * provokes on purpose (a wrong password, a 402) are the browser's own logging, not the app's, and are let through.
 */
export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(`uncaught: ${err.message}`));
      page.on('console', (msg) => {
        if (msg.type() !== 'error') return;
        if (/^Failed to load resource: the server responded with a status of 4\d\d/.test(msg.text())) return;
        errors.push(`console: ${msg.text()}`);
      });
      await use(errors);
      expect(errors, 'console errors').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

export const isPhone = (page: Page): boolean => (page.viewportSize()?.width ?? 1280) < 850;

let counter = 0;
export function uniqueName(prefix = 'u'): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36).slice(-6)}${counter}${Math.floor(Math.random() * 100)}`;
}

export interface TestUser {
  username: string;
  password: string;
  email: string;
}

/** Registers through the API (sharing the page's cookies) and marks the browser signed in. */
export async function signUp(page: Page): Promise<TestUser> {
  const user = { username: uniqueName(), password: 'correct horse battery 9', email: `${uniqueName('m')}@example.com` };
  const res = await page.request.post('/api/auth/register', { data: { ...user, currentPath: '/' } });
  expect(res.status(), await res.text()).toBe(200);
  // The first profile read ends the first login, so these tests do not meet the welcome popup.
  expect((await page.request.get('/api/user/profile')).status()).toBe(200);
  await page.goto('/close-the-window');
  await page.evaluate(() => localStorage.setItem('isLoggedIn', 'true'));
  return user;
}

/** The newest verification link mailed to `email` (the mail outbox of the test server's DATA_DIR). */
export function verificationLink(email: string): string {
  const dir = path.join(process.env.E2E_DATA_DIR!, 'mail');
  const files = readdirSync(dir)
    .filter((f) => f.includes(email.replace(/[^A-Za-z0-9@._-]/g, '_')))
    .sort();
  const text = readFileSync(path.join(dir, files.at(-1)!), 'utf8');
  const link = /https?:\/\/\S+\/verify-email\?\S+/.exec(text)?.[0];
  if (!link) throw new Error(`no verification link in ${files.at(-1)}`);
  return link;
}
