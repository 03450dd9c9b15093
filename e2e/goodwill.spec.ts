import fs from 'node:fs';
import { GOODWILL_CSV_HEADER } from '../common/goodwill';
import { expect, signUp, test } from './fixtures';
import { shot, topUp, uploadPicture } from './pictures-helpers';

test('choose a cause, spend, see the payment pending; the proof page shows the figures and downloads the CSV', async ({
  page,
}, info) => {
  await signUp(page);
  await topUp(page, 1_000);

  await page.goto('/goodwill');
  await expect(page.getByRole('heading', { name: 'Swag' })).toBeVisible();
  const science = page.getByRole('radio', { name: 'Science' });
  await expect(page.getByRole('radio', { name: 'Open source' })).toBeChecked();
  await expect(page.getByText('No payments yet')).toBeVisible();
  await science.check();
  await expect(science).toBeChecked();
  await expect
    .poll(async () => ((await (await page.request.get('/api/user/good-will')).json()) as { value: string }).value)
    .toBe('SCIENCE');

  // A spend of $3: half of it, $1.50, goes to Science.
  await uploadPicture(page, 300);
  await page.reload();
  const payment = page.getByTestId('goodwill-payment').first();
  await expect(payment).toContainText('$1.50');
  await expect(payment).toContainText('Science');
  await expect(payment).toContainText('Waiting to be forwarded');
  await expect(page.getByRole('radio', { name: 'Science' })).toBeChecked();
  // The phone's bottom bar is fixed: the payment is scrolled into the view rather than shot on a full page.
  await payment.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await page.screenshot({ path: shot(info.project.name, 'goodwill') });

  await page.getByRole('link', { name: /How to check the payments/ }).click();
  await expect(page).toHaveURL(/\/goodwill\/proof$/);
  await expect(page.getByText(/monthly and three-monthly intervals/)).toBeVisible();
  const row = page.getByTestId('goodwill-total-SCIENCE');
  await expect(row.getByRole('rowheader')).toHaveText('Science');
  await expect(row.getByRole('cell').first()).not.toHaveText('$0.00');
  // All four columns show at phone width too: the table does not scroll sideways.
  const table = page.getByRole('table');
  expect(await table.evaluate((t) => t.scrollWidth <= (t.parentElement?.clientWidth ?? 0) + 1)).toBe(true);
  await page.screenshot({ path: shot(info.project.name, 'goodwill-proof'), fullPage: true });

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Payments' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('goodwill_payments.csv');
  const text = fs.readFileSync((await download.path())!, 'utf8');
  expect(text.split('\r\n')[0]).toBe(GOODWILL_CSV_HEADER);
});

test('a failed save or load says so; a visitor may read the proof, and is asked to sign in for Swag', async ({
  page,
}) => {
  await page.goto('/goodwill/proof');
  await expect(page.getByRole('heading', { name: 'How to check the payments' })).toBeVisible();
  await expect(page.getByTestId('goodwill-total-OPEN_SOURCE')).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Sign in' })).toHaveCount(0);
  await page.goto('/goodwill');
  await expect(page.getByRole('dialog', { name: 'Sign in' })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  await signUp(page);
  await page.route(/\/api\/user\/good-will\/payments/, (route) => route.fulfill({ status: 429, body: '{}' }));
  await page.route('**/api/user/good-will', (route) =>
    route.request().method() === 'POST' ? route.fulfill({ status: 429, body: '{}' }) : route.fallback(),
  );
  await page.goto('/goodwill');
  // The query retries before it gives up (TanStack Query's default backoff: about 7 s).
  await expect(page.getByText('Failed to fetch data.')).toBeVisible({ timeout: 20_000 });
  await page.getByRole('radio', { name: 'Politics' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Failed to update goodwill data.' })).toBeVisible();
  // The saved cause is shown again.
  await expect(page.getByRole('radio', { name: 'Open source' })).toBeChecked();
  await expect(page.getByRole('radio', { name: 'Politics' })).not.toBeChecked();
});

test('more payments than a page: Show older payments loads the rest, then goes away', async ({ page }) => {
  await signUp(page);
  await topUp(page, 1_000);
  const pictureId = await uploadPicture(page, 100); // the first payment: $0.50
  // 50 more spends of 2¢, each paying a share of 1¢: 51 payments, one more than a page.
  for (let i = 0; i < 50; i++) {
    const fund = await page.request.post('/api/payment/checkout-with-image-fund', {
      data: { imageId: pictureId, amount: 2, balance: 900 },
    });
    expect(fund.status(), await fund.text()).toBe(200);
  }
  await page.goto('/goodwill');
  const payments = page.getByTestId('goodwill-payment');
  await expect(payments).toHaveCount(50);
  await expect(payments.last()).toContainText('$0.01');
  await page.getByRole('button', { name: 'Show older payments' }).click();
  await expect(payments).toHaveCount(51);
  await expect(payments.last()).toContainText('$0.50');
  await expect(page.getByRole('button', { name: 'Show older payments' })).toHaveCount(0);
});
