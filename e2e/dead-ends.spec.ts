import { expect, isPhone, signUp, test } from './fixtures';
import { shot } from './pictures-helpers';

/* Screens that used to leave a person with nothing to do: each now says what is going on and leads somewhere. */

test('a newcomer’s sign-in popup opens on a tab that works: Login, with Register beside it, no Easy without Google', async ({
  page,
}, info) => {
  await page.goto('/');
  if (isPhone(page)) await page.getByTestId('bottom-bar').getByRole('button', { name: 'Login' }).click();
  else await page.getByRole('button', { name: 'SIGN IN' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign in' });
  await expect(dialog.getByRole('tab')).toHaveText(['Login', 'Register']);
  await expect(dialog.getByRole('tab', { name: 'Login' })).toHaveAttribute('aria-selected', 'true');
  await expect(dialog.getByLabel('Username')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Login' })).toBeVisible();
  await expect(dialog).not.toContainText('not set up');
  await page.screenshot({ path: shot(info.project.name, 'sign-in-popup') });
});

test('a signed-in non-admin on /admin-console is told plainly it is for administrators, and goes home', async ({
  page,
}, info) => {
  await signUp(page);
  await page.goto('/admin-console');
  await expect(page.getByRole('heading', { name: 'Administrators only', level: 1 })).toBeVisible();
  await expect(page.getByText('This page is for administrators.')).toBeVisible();
  await expect(page.getByText('Please wait...')).toHaveCount(0);
  await page.screenshot({ path: shot(info.project.name, 'admin-refused') });
  await page.getByRole('link', { name: 'Back to the wall' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('a visitor on /admin-console is told the same, and may sign in', async ({ page }) => {
  await page.goto('/admin-console');
  await expect(page.getByText('This page is for administrators. If you are one, sign in first.')).toBeVisible();
  await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('dialog', { name: 'Sign in' })).toBeVisible();
});

test('an unknown path, /week or a typo, says Page not found and leads home', async ({ page }, info) => {
  await signUp(page);
  for (const path of ['/week', '/lootboxs', '/image/top/1/extra']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: 'Page not found', level: 1 })).toBeVisible();
    await expect(page.getByRole('main')).toContainText(`There is no page at ${path}.`);
    await expect(page.getByText('This screen is coming soon.')).toHaveCount(0);
  }
  await page.screenshot({ path: shot(info.project.name, 'not-found') });
  await page.getByRole('link', { name: 'Back to the wall' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Top wall', level: 1 })).toBeAttached();
});

test('a visitor following a broken link reads Page not found, not a sign-in popup', async ({ page }) => {
  await page.goto('/lootboxs');
  await expect(page.getByRole('heading', { name: 'Page not found', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/lootboxs$/);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // A page of the product that needs an account still asks for one.
  await page.goto('/lootboxes');
  await expect(page.getByRole('dialog', { name: 'Sign in' })).toBeVisible();
});

test('on a cash host the donation routes explain where donation links live, and offer card top-up', async ({
  page,
}, info) => {
  // A visitor on the public list (a public path), then a signed-in user on their own.
  await page.goto('/public-donations');
  await expect(page.getByRole('heading', { name: 'Donation links', level: 1 })).toBeVisible();
  await expect(page.getByRole('main')).toContainText('Donation links are sent and listed on the charity sites');
  await page.getByRole('button', { name: 'Sign in to add money' }).click();
  await expect(page.getByRole('dialog', { name: 'Sign in' })).toBeVisible();

  await signUp(page);
  await page.goto('/my-donations');
  await expect(page.getByRole('main')).toContainText('On this site you add money by card instead.');
  await page.screenshot({ path: shot(info.project.name, 'donations-elsewhere') });
  await page.getByRole('main').getByRole('button', { name: 'Add money' }).click();
  await expect(page.getByRole('dialog', { name: 'Add money' })).toBeVisible();
});
