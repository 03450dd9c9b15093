import { readFile } from 'node:fs/promises';
import { expect, isPhone, signUp, test } from './fixtures';
import { shot, topUp, uploadPicture } from './pictures-helpers';

test('the statement: sums per type with their signs, the rows of a type, and the CSV download', async ({
  page,
}, info) => {
  await signUp(page);
  // Money in, then out: $10 by card, 3 keys ($3, one call), a picture uploaded for $1 and funded with $2 more.
  await topUp(page, 1_000);
  const keys = await page.request.post('/api/purchase/key', { data: { keyCount: 3, balance: 1_000 } });
  expect(keys.status(), await keys.text()).toBe(200);
  const pictureId = await uploadPicture(page, 100);
  const fund = await page.request.post('/api/payment/checkout-with-image-fund', {
    data: { imageId: pictureId, amount: 200, balance: 600 },
  });
  expect(fund.status(), await fund.text()).toBe(200);

  // Reached the way a user would: the account dropdown on a desktop, the profile tiles on a phone.
  await page.goto('/');
  if (isPhone(page)) {
    await page.goto('/mobile-profile');
    await page.getByRole('link', { name: 'Transactions' }).click();
  } else {
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Transactions' }).click();
  }
  await expect(page).toHaveURL(/\/transactions$/);
  const types = page.getByRole('list', { name: 'Transaction types' });
  const typeRow = (label: string) => types.getByRole('link', { name: new RegExp(`^${label}`) });
  await expect(typeRow('Top-ups')).toContainText('$10');
  await expect(typeRow('Keys')).toContainText('-$3');
  await expect(typeRow('Pictures')).toContainText('-$3');
  await expect(typeRow('Chat messages')).toContainText('$0');
  await expect(typeRow('Top-ups').locator('.amount')).toHaveCSS('color', 'rgb(6, 118, 71)');
  await expect(typeRow('Keys').locator('.amount')).toHaveCSS('color', 'rgb(180, 35, 24)');
  // A buy offer holds money without spending it: no row of any type, and the summary says, live, what is held.
  await expect(page.getByTestId('transactions-held')).toHaveCount(0);
  const bid = await page.request.post('/api/market/generic-buy-offer', {
    data: { itemType: 'COMMON_LETTER_A', price: 130, quantity: 2, balance: 400 },
  });
  expect(bid.status(), await bid.text()).toBe(200);
  await expect(page.getByTestId('transactions-held')).toContainText('Held in buy offers: $2.60');
  await expect(typeRow('Items bought')).toContainText('$0');
  await page.screenshot({ path: shot(info.project.name, 'transactions'), fullPage: true });

  // The CSV: a header, then one row per call, in integer cents (the buy offer is none).
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('transactions.csv');
  const lines = (await readFile((await download.path())!, 'utf8')).trimEnd().split('\r\n');
  expect(lines[0]).toBe('time,type,amount_cents,resource_id,preview');
  expect(lines.slice(1).map((l) => l.split(',').slice(1, 3).join(','))).toEqual([
    'IMAGE,-200',
    'IMAGE,-100',
    'KEY,-300',
    'TOP_UP,1000',
  ]);

  // One type's rows: its preview column, newest first, red when spent; a row goes to the picture.
  await typeRow('Pictures').click();
  await expect(page).toHaveURL(/\/transactions\/IMAGE$/);
  const table = page.getByRole('table');
  await expect(table.getByRole('columnheader')).toHaveText(['Preview', 'Time', 'Amount']);
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.locator('td.amount')).toHaveText(['-$2', '-$1']);
  await expect(rows.first().locator('td.amount')).toHaveCSS('color', 'rgb(180, 35, 24)');
  await expect(rows.first().getByRole('img')).toHaveJSProperty('complete', true);
  await page.screenshot({ path: shot(info.project.name, 'transactions-image'), fullPage: true });

  // A type with nothing in it says so.
  await page.goto('/transactions/CHAT_MESSAGE');
  await expect(page.getByText('No details available for this transaction.')).toBeVisible();

  await page.goto('/transactions/IMAGE');
  await page.getByRole('table').locator('tbody tr').first().click();
  await expect(page).toHaveURL(new RegExp(`/image/profile/${pictureId}$`));
});
