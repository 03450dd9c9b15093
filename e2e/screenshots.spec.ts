import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, signUp, test } from './fixtures';

/** Every route of SPEC §2, photographed at the project's width into e2e-screenshots/<run name>/. */
const ROUTES = [
  '/',
  '/trending',
  '/image/top/1',
  '/image/share/1',
  '/profile/1',
  '/profile/edit',
  '/mobile-profile',
  '/upload',
  '/lootboxes',
  '/lootboxes/fairness',
  '/my-items',
  '/item-store',
  '/items-detail/COMMON_LETTER_A/item-store',
  '/chat',
  '/notifications',
  '/mobile-notifications',
  '/verify-email?userId=1&secret=wrong',
  '/goodwill',
  '/goodwill/proof',
  '/transactions',
  '/transactions/IMAGE',
  '/success',
  '/cancel',
  '/close-the-window',
  '/admin-console',
];

/** Controls a screen reader could not name: no label, no text, no aria-label. */
async function unnamedControls(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [
      ...document.querySelectorAll<HTMLElement>(
        'button, a[href], input, select, textarea, [role="slider"], [role="tab"]',
      ),
    ]
      .filter((el) => {
        const label =
          el.getAttribute('aria-label') ||
          el.getAttribute('aria-labelledby') ||
          el.getAttribute('title') ||
          (el as HTMLInputElement).labels?.length ||
          el.textContent?.trim() ||
          el.querySelector('img[alt]:not([alt=""])');
        return !label && el.getAttribute('type') !== 'hidden';
      })
      .map((el) => el.outerHTML.slice(0, 120)),
  );
}

const shot = (project: string, name: string) =>
  path.join(
    'e2e-screenshots',
    process.env.E2E_RUN_NAME!,
    `${project}-${name.replace(/^\//, '').replace(/[^a-z0-9]+/gi, '_') || 'top'}.png`,
  );

test('every route renders in the shell without console errors', async ({ page }, info) => {
  test.setTimeout(180_000);
  await page.goto('/');
  await page.getByRole('button', { name: 'SIGN IN' }).click();
  await expect(page.getByRole('dialog', { name: 'Sign in' })).toBeVisible();
  await page.screenshot({ path: shot(info.project.name, 'logged-out-sign-in') });

  await signUp(page);
  for (const route of ROUTES) {
    await page.goto(route);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('Page not found');
    await page.screenshot({ path: shot(info.project.name, route) });
    expect(await unnamedControls(page), `unnamed controls on ${route}`).toEqual([]);
  }
  await page.goto('/');
  await page.getByTestId('balance').first().click();
  await expect(page.getByRole('dialog', { name: 'Add money' })).toBeVisible();
  await page.screenshot({ path: shot(info.project.name, 'add-money') });

  // The in-between widths: the wide bottom bar (850-1230 px) and the two-row header (under 380 px).
  await page.keyboard.press('Escape');
  await page.setViewportSize(
    info.project.name === 'phone' ? { width: 360, height: 740 } : { width: 1000, height: 800 },
  );
  await page.screenshot({
    path: shot(info.project.name, info.project.name === 'phone' ? 'narrow-360' : 'tablet-1000'),
  });
});
