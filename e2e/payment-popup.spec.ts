import { expect, signUp, test } from './fixtures';

/*
 * The add-money popup and the demo provider's payment window (docs/product.md#top-up): what the popup says once the
 * window is done with, and that a paid top-up leaves nothing to click that would pay again.
 */

test.beforeEach(async ({ page }) => {
  await signUp(page);
  await page.goto('/');
});

test('a paid top-up shows its result with no pay button, and the balance rises once', async ({ page }) => {
  const balance = page.getByTestId('balance').filter({ visible: true }).first();
  await expect(balance).toHaveText('$0');
  await balance.click();
  const popup = page.getByRole('dialog', { name: 'Add money' });
  const [checkout] = await Promise.all([
    page.waitForEvent('popup'),
    popup.getByRole('button', { name: 'Pay $5' }).click(),
  ]);
  await checkout.waitForURL(/\/demo-checkout\//);
  await checkout.getByRole('button', { name: 'Pay' }).click();

  await expect(popup.getByRole('status')).toHaveText('Payment was successful!');
  await expect(popup.getByRole('button', { name: /^Pay/ })).toHaveCount(0);
  await expect(popup.getByLabel('Amount in dollars')).toHaveCount(0);
  await expect(popup).toContainText('Your balance is now $5.');
  await expect(balance).toHaveText('$5');
  await popup.getByRole('button', { name: 'Done' }).click();
  await expect(popup).toHaveCount(0);
  // Opened again, it is a new top-up with its own Pay button.
  await balance.click();
  await expect(page.getByRole('dialog', { name: 'Add money' }).getByRole('button', { name: 'Pay $5' })).toBeEnabled();
  await expect(balance).toHaveText('$5');
});

test('cancelling on the checkout page says the payment was cancelled, and Pay can be tried again', async ({ page }) => {
  await page.getByTestId('balance').filter({ visible: true }).first().click();
  const popup = page.getByRole('dialog', { name: 'Add money' });
  const [checkout] = await Promise.all([
    page.waitForEvent('popup'),
    popup.getByRole('button', { name: 'Pay $5' }).click(),
  ]);
  await checkout.waitForURL(/\/demo-checkout\//);
  await checkout.getByRole('button', { name: 'Cancel' }).click();

  await expect(popup.getByRole('status')).toHaveText('Payment Cancelled.');
  await expect(popup.getByRole('button', { name: 'Pay $5' })).toBeEnabled();
  await expect(page.getByTestId('balance').filter({ visible: true }).first()).toHaveText('$0');
});
