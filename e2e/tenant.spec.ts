import { chromium } from '@playwright/test';
import { expect, test } from './fixtures';

// A host outside CASH_HOSTS is a charity tenant; the browser reaches the test server under such a name.
const GREEN_HOST = 'green.test';

test('a charity host shows the green brand and offers the charity link popup instead of card top-up', async ({
  page: _unused,
}, info) => {
  const port = process.env.E2E_PORT!;
  const launch = info.project.use.launchOptions!;
  const browser = await chromium.launch({
    ...launch,
    args: [...(launch.args ?? []), `--host-resolver-rules=MAP ${GREEN_HOST} 127.0.0.1`],
  });
  try {
    const base = `http://${GREEN_HOST}:${port}`;
    const page = await browser.newPage({ baseURL: base });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));

    await page.goto('/');
    await expect(page).toHaveTitle('The green app');
    await expect(page.locator('meta[name="tenant"]')).toHaveAttribute('content', 'charity');

    const username = `g${Date.now().toString(36)}`;
    // Through the browser: the host name resolves only there.
    const status = await page.evaluate(async (name) => {
      const body = { username: name, password: 'green password 1', email: `${name}@example.com`, currentPath: '/' };
      const res = await fetch('/api/auth/register', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      await fetch('/api/user/profile');
      return res.status;
    }, username);
    expect(status).toBe(200);
    await page.evaluate(() => localStorage.setItem('isLoggedIn', 'true'));
    await page.goto('/chat');
    await expect(page).toHaveTitle('The green app | Chat');
    await page.getByTestId('balance').first().click();
    const popup = page.getByRole('dialog', { name: 'Charity link' });
    await expect(popup).toContainText('Card top-up is not offered here');
    await expect(popup.getByRole('textbox', { name: 'Donation link' })).toBeVisible();
    expect(errors).toEqual([]);
  } finally {
    await browser.close();
  }
});
