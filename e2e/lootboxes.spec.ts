import { expect, isPhone, signUp, test } from './fixtures';
import { stockUp, tally } from './lootbox-helpers';
import { shot, topUp } from './pictures-helpers';

/** The reveal takes 2 s + 4 × 500 ms; a busy machine may stretch it, so tests wait for its end state instead. */
const REVEAL_DONE = { timeout: 30_000 };

test('buys keys, gets and opens a box, watches the reveal finish and finds the items in the inventory', async ({
  page,
}, info) => {
  await signUp(page);
  await topUp(page, 500);
  await page.goto('/lootboxes');
  await expect(page).toHaveTitle('The ultimate flex | Lootboxes');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Lootboxes');

  // Each tier's own chance, weight ÷ total, with no elusive item on sale.
  for (const [tier, text] of [
    ['LETTER', '80%'],
    ['UNCOMMON', '15%'],
    ['RARE', '4.2%'],
    ['EPIC', '0.7%'],
    ['ELUSIVE', '0.1%'],
  ]) {
    await expect(page.getByTestId(`chance-${tier}`)).toHaveText(text!);
  }
  await expect(page.getByRole('progressbar', { name: 'Letter chance' })).toHaveAttribute('aria-valuenow', '80');
  await expect(page.getByRole('button', { name: 'Open', exact: true })).toBeDisabled();
  await expect(page.getByText('Get a loot box first: it is free.')).toBeVisible();
  await page.screenshot({ path: shot(info.project.name, 'lootboxes-start'), fullPage: true });

  const keys = page.getByLabel('Keys to buy');
  await keys.fill('2');
  await page.getByRole('button', { name: 'Buy 2 keys for $2' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Bought 2 keys.' })).toBeVisible();
  await expect(page.getByTestId('key-count')).toHaveText('2 keys');
  await expect(page.getByTestId('balance').first()).toHaveText('$3');

  await page.getByRole('button', { name: 'Get 0¢' }).click();
  await expect(page.getByTestId('box-count')).toHaveText('1');

  await page.getByRole('button', { name: 'Open', exact: true }).click();
  const row = page.getByTestId('loot-row');
  await expect(row).toHaveCount(1);
  // Mid-reveal, for the eye only: on a slow machine it may already be over.
  await expect(row.locator('[data-testid="loot-slot"][data-item]').first()).toBeVisible(REVEAL_DONE);
  await page.screenshot({ path: shot(info.project.name, 'lootboxes-revealing') });
  await expect(row).toHaveAttribute('data-state', 'finished', REVEAL_DONE);
  const slots = row.getByTestId('loot-slot');
  await expect(slots).toHaveCount(5);
  const loot = await slots.evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.item ?? ''));
  expect(
    loot.every((code) => /^[A-Z]+_(LETTER|EMOJI)_[A-Z_]+$/.test(code)),
    loot.join(),
  ).toBe(true);
  await expect(page.getByTestId('box-count')).toHaveText('0');
  await expect(page.getByTestId('key-count')).toHaveText('1 key');
  await page.screenshot({ path: shot(info.project.name, 'lootboxes-revealed'), fullPage: true });

  // The five items are owned now.
  await page.goto('/my-items');
  await expect(page).toHaveTitle('The ultimate flex | Inventory');
  for (const [code, count] of tally(loot)) {
    const tile = page.locator(`[data-testid="item-tile"][data-item="${code}"]`);
    await expect(tile.locator('[data-field="owned"]')).toHaveText(String(count));
  }
  await expect(page.getByTestId('item-tile')).toHaveCount(tally(loot).size);
  await page.screenshot({ path: shot(info.project.name, 'my-items'), fullPage: true });
});

test('shows maxLootboxesDisplayed boxes at once; skip clears them into the previous loot, which a visit keeps', async ({
  page,
}, info) => {
  await signUp(page);
  await stockUp(page, { keys: 3, boxes: 3 });
  await page.goto('/lootboxes?maxLootboxesDisplayed=2');
  await expect(page.getByText('Nothing yet: the items of the boxes you open will show here.')).toBeVisible();

  const open = page.getByRole('button', { name: 'Open', exact: true });
  await open.click();
  await expect(page.getByTestId('box-count')).toHaveText('2');
  await open.click();
  const rows = page.getByTestId('loot-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveAttribute('data-state', 'finished', REVEAL_DONE);
  await expect(rows.nth(1)).toHaveAttribute('data-state', 'finished', REVEAL_DONE);
  await page.screenshot({ path: shot(info.project.name, 'lootboxes-two-rows'), fullPage: true });

  // Opening the next box removes the finished rows.
  await open.click();
  await expect(rows).toHaveCount(1);
  await expect(page.getByTestId('previous-loot').getByRole('listitem')).toHaveCount(10);
  await expect(rows).toHaveAttribute('data-state', 'finished', REVEAL_DONE);

  await page.getByRole('button', { name: 'Skip' }).click();
  await expect(rows).toHaveCount(0);
  await expect(page.getByTestId('previous-loot').getByRole('listitem')).toHaveCount(10);
  const before = await page
    .getByTestId('previous-loot')
    .getByRole('listitem')
    .evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.item));

  // The last ten come back from the server on the next visit.
  await page.reload();
  await expect(page.getByTestId('previous-loot').getByRole('listitem')).toHaveCount(10);
  expect(
    await page
      .getByTestId('previous-loot')
      .getByRole('listitem')
      .evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.item)),
  ).toEqual(before);
});

test('one box at a time drops the unfinished row when the next one opens', async ({ page }) => {
  await signUp(page);
  await stockUp(page, { keys: 2, boxes: 2 });
  await page.goto('/lootboxes');
  const open = page.getByRole('button', { name: 'Open', exact: true });
  await open.click();
  await expect(page.getByTestId('box-count')).toHaveText('1');
  await open.click();
  await expect(page.getByTestId('box-count')).toHaveText('0');
  await expect(page.getByTestId('loot-row')).toHaveCount(1);
  await expect(page.getByTestId('loot-row')).toHaveAttribute('data-state', 'finished', REVEAL_DONE);
  await expect(page.getByTestId('previous-loot').getByRole('listitem')).toHaveCount(5);
});

test('says so when a key, a box or an opening fails, and removes the failed row', async ({ page }) => {
  await signUp(page);
  await stockUp(page, { keys: 1, boxes: 1 });
  await page.goto('/lootboxes');
  await expect(page.getByTestId('box-count')).toHaveText('1');

  const refuse = (field: string) => ({
    status: 400,
    contentType: 'application/json',
    body: JSON.stringify([{ field, errorText: 'refused by the test' }]),
  });
  await page.route('**/api/purchase/key', (route) => route.fulfill(refuse('keyCount')));
  await page.route('**/api/purchase/lootbox', (route) => route.fulfill(refuse('lootBoxCount')));
  await page.route('**/api/open/lootbox', (route) => route.fulfill(refuse('keyCount')));

  const buy = page.getByRole('button', { name: 'Buy 1 key for $1' });
  await buy.click();
  // A key purchase takes at least 500 ms, even when the answer is at once.
  await expect(page.getByRole('button', { name: 'Buying...' })).toBeDisabled();
  await expect(page.getByRole('alert').filter({ hasText: 'Failed to get key. Please try again.' })).toBeVisible();

  await page.getByRole('button', { name: 'Get 0¢' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Failed to get loot box. Please try again.' })).toBeVisible();

  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Failed to open loot box. Please try again.' })).toBeVisible();
  await expect(page.getByTestId('loot-row')).toHaveCount(0);
  await expect(page.getByTestId('box-count')).toHaveText('1');
});

test('a key bought with too little money opens the top-up popup with the shortfall', async ({ page }) => {
  await signUp(page);
  await page.goto('/lootboxes');
  await page.getByLabel('Keys to buy').fill('3');
  await page.getByRole('button', { name: 'Buy 3 keys for $3' }).click();
  const dialog = page.getByRole('dialog', { name: 'Top up' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('You need $3 more for this.');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('key-count')).toHaveText('0 keys');
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('refuses a key count outside 1 to 99', async ({ page }) => {
  await signUp(page);
  await page.goto('/lootboxes');
  const keys = page.getByLabel('Keys to buy');
  await keys.fill('0');
  await expect(page.getByRole('button', { name: 'Buy keys' })).toBeDisabled();
  await expect(page.getByText('Buy from 1 to 99 keys.')).toBeVisible();
  await keys.fill('');
  await keys.pressSequentially('1e5');
  await expect(keys).toHaveValue('15');
  await keys.fill('99');
  await expect(page.getByRole('button', { name: 'Buy 99 keys for $99' })).toBeEnabled();
  if (!isPhone(page))
    await expect(page.getByRole('link', { name: 'LOOTBOXES' })).toHaveAttribute('aria-current', 'page');
});
