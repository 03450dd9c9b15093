import type { Page } from '@playwright/test';
import { expect, isPhone, signUp, test } from './fixtures';
import { openBoxes, stockUp } from './lootbox-helpers';
import { marketCall, mostOwnedItem, otherUser } from './market-helpers';
import { shot, topUp } from './pictures-helpers';
import { chat, ownedWord } from './screens-helpers';

/*
 * Screens change with the live connection, without a reload (docs/decisions.md "Screens that change with the live
 * connection"): each test shows a screen, changes what it shows from elsewhere (another user, or another tab of the
 * same user through the API), and waits for the screen to follow.
 */

/** The sum of the Owned counts the inventory shows. */
const ownedOnScreen = (page: Page) =>
  page
    .locator('[data-testid="item-tile"] [data-field="owned"]')
    .allTextContents()
    .then((counts) => counts.reduce((sum, n) => sum + Number(n), 0));

test('a sale changes the seller’s item detail (owned count, own offer) and inventory live', async ({
  page,
  browser,
}, info) => {
  await signUp(page);
  const { itemType, owned } = await mostOwnedItem(page, 3);
  await marketCall(page, '/api/market/generic-sell-offer', { itemType, quantity: 1, price: 150 });

  // The seller watches the item's detail in one tab and the inventory in another.
  await page.goto(`/items-detail/${itemType}/my-items`);
  await expect(page.getByTestId('owned')).toHaveText(String(owned));
  await expect(page.getByTestId('market-count')).toHaveText('1');
  await expect(page.getByTestId('own-sell-offer')).toContainText('1 × $1.50');
  const inventory = await page.context().newPage();
  await inventory.goto('/my-items');
  const tile = inventory.locator(`[data-testid="item-tile"][data-item="${itemType}"]`);
  await expect(tile.locator('[data-field="owned"]')).toHaveText(String(owned));

  // Another user buys it at the market price.
  const buyer = await otherUser(browser, page, info);
  await topUp(buyer.page, 500);
  await marketCall(buyer.page, '/api/market/buy', { itemType, requestedPrice: 150, balance: 500 });

  await expect(page.getByTestId('owned')).toHaveText(String(owned - 1));
  await expect(page.getByTestId('market-count')).toHaveText('0');
  await expect(page.getByTestId('own-sell-offer')).toHaveCount(0);
  if (owned > 1) await expect(tile.locator('[data-field="owned"]')).toHaveText(String(owned - 1));
  else await expect(tile).toHaveCount(0);
  await buyer.context.close();
});

test('the inventory counts what a lootbox opened in another tab found', async ({ page }) => {
  await signUp(page);
  await openBoxes(page, 1);
  await page.goto('/my-items');
  await expect.poll(() => ownedOnScreen(page)).toBe(5);
  // Opened elsewhere (the API with this browser's session, as another tab would).
  await openBoxes(page, 2);
  await expect.poll(() => ownedOnScreen(page)).toBe(15);
});

test('the statement’s sums change after a spend in another tab', async ({ page }) => {
  await signUp(page);
  await topUp(page, 1_000);
  await page.goto('/transactions');
  const types = page.getByRole('list', { name: 'Transaction types' });
  const row = (label: string) => types.getByRole('link', { name: new RegExp(`^${label}`) });
  await expect(row('Top-ups')).toContainText('$10');
  await expect(row('Keys')).toHaveCount(0);

  await stockUp(page, { keys: 3 });
  await expect(row('Keys')).toContainText('-$3');
  await expect(row('Top-ups')).toContainText('$13');
});

test('the goodwill list shows the share of a spend made in another tab', async ({ page }) => {
  await signUp(page);
  await topUp(page, 1_000);
  await page.goto('/goodwill');
  await expect(page.getByText('No payments yet')).toBeVisible();
  await stockUp(page, { keys: 2 });
  const payment = page.getByTestId('goodwill-payment').first();
  await expect(payment).toContainText('$1.00');
  await expect(payment).toContainText('Waiting to be forwarded');
});

test('messages sent while the user is elsewhere count on the chat bubble (or the phone’s Chat entry) until the chat is opened', async ({
  page,
  browser,
}, info) => {
  await signUp(page);
  await page.goto('/');
  // A desktop opens the room in the floating bubble; a phone, whose bar stands for the bubbles, on its own page.
  const phone = isPhone(page);
  const entry = phone
    ? page.getByTestId('bottom-bar').getByRole('link', { name: 'Chat' })
    : page.getByRole('button', { name: /^Open chat/ });
  const counts = page.getByTestId('chat-missed-count').filter({ visible: true });
  async function openAndLeave() {
    await entry.click();
    if (phone) {
      await expect(page.getByRole('region', { name: 'General chat room' })).toBeVisible();
      await page.goto('/');
    } else {
      await expect(page.getByRole('dialog', { name: 'Chat' })).toBeVisible();
      await page.getByRole('button', { name: 'Close chat' }).click();
    }
    await expect(entry).toBeVisible();
  }
  // Whatever the room held before is read once: opening the chat clears it.
  await openAndLeave();
  await expect(counts).toHaveCount(0);

  const writer = await otherUser(browser, page, info);
  await openBoxes(writer.page, 2);
  await topUp(writer.page, 500);
  await chat(writer.page, await ownedWord(writer.page));
  await chat(writer.page, await ownedWord(writer.page));

  await expect(entry.getByTestId('chat-missed-count')).toHaveText('2');
  if (!phone) await expect(entry).toHaveAccessibleName('Open chat, 2 new messages');
  await page.screenshot({ path: shot(info.project.name, 'chat-missed-count') });
  // A new page load asks the server, which counts the same.
  await page.reload();
  await expect(entry.getByTestId('chat-missed-count')).toHaveText('2');

  // Opened: read, so the count is gone, and stays gone after the room closes and the page reloads.
  await openAndLeave();
  await expect(counts).toHaveCount(0);
  if (!phone) await expect(entry).toHaveAccessibleName('Open chat');
  await page.reload();
  await expect(entry).toBeVisible();
  await expect(counts).toHaveCount(0);

  // On the chat's own page a message is read as it arrives: no count there, nor after leaving it.
  await page.goto('/chat');
  await expect(page.getByRole('region', { name: 'General chat room' })).toBeVisible();
  await chat(writer.page, await ownedWord(writer.page));
  await expect(page.getByTestId('chat-message').last()).toBeVisible();
  await page.waitForTimeout(500);
  await expect(counts).toHaveCount(0);
  await page.goto('/');
  await expect(entry).toBeVisible();
  await page.waitForTimeout(500);
  await expect(counts).toHaveCount(0);
  await writer.context.close();
});
