import { expect, isPhone, test, uniqueName, verificationLink } from './fixtures';

test('a visitor registers, verifies the email, tops up in the payment window and logs out', async ({ page }) => {
  const username = uniqueName('j');
  const email = `${username}@example.com`;
  const password = 'a long enough password 7';

  await page.goto('/');
  await page.getByRole('button', { name: 'SIGN IN' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign in' });
  await dialog.getByRole('tab', { name: 'Register' }).click();
  await dialog.getByLabel('Username').fill(username);
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Password', { exact: true }).fill(password);
  await dialog.getByLabel('Confirm password').fill(password);
  await dialog.getByRole('button', { name: 'Register' }).click();

  // First login: the welcome popup, then the user area with a zero balance.
  const welcome = page.getByRole('dialog', { name: `Welcome, ${username}!` });
  await expect(welcome).toBeVisible();
  await welcome.getByRole('button', { name: "Let's go" }).click();
  const balance = page.getByTestId('balance').first();
  await expect(balance).toHaveText('$0');

  await page.goto(verificationLink(email));
  await expect(page.getByRole('status')).toHaveText('Email verified!');

  // No reload from here on: the marker would vanish with one.
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
  await balance.click();
  const addMoney = page.getByRole('dialog', { name: 'Add money' });
  await expect(addMoney.getByLabel('Amount in dollars')).toHaveValue('5');
  await addMoney.getByLabel('Amount in dollars').fill('12');
  const [checkout] = await Promise.all([
    page.waitForEvent('popup'),
    addMoney.getByRole('button', { name: 'Pay $12' }).click(),
  ]);
  await checkout.waitForURL(/\/demo-checkout\//);
  await checkout.getByRole('button', { name: 'Pay' }).click();

  await expect(addMoney.getByRole('status')).toHaveText('Payment was successful!');
  await expect(balance).toHaveText('$12');
  expect(await page.evaluate(() => (window as unknown as { marker: number }).marker)).toBe(42);

  await page.keyboard.press('Escape');
  if (isPhone(page)) {
    await page.getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('main').getByRole('button', { name: 'Logout' }).click();
  } else {
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
  }
  await expect(page.getByRole('button', { name: 'SIGN IN' })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
});
