import { expect, signUp, test } from './fixtures';
import { balanceOf, marketCall, mostOwnedItem, otherUser } from './market-helpers';
import { shot, topUp } from './pictures-helpers';

test('a seller offers, another user buys at the market price, and both see it live', async ({
  page,
  browser,
}, info) => {
  await signUp(page);
  const { itemType, owned, name } = await mostOwnedItem(page);
  const buyer = await otherUser(browser, page, info);

  // The buyer watches the item's tile in the store.
  await buyer.page.goto(`/item-store?q=${encodeURIComponent(name)}`);
  const tile = buyer.page.locator(`[data-testid="item-tile"][data-item="${itemType}"]`);
  await expect(tile.locator('[data-field="market"]')).toHaveText('0');
  await expect(tile.locator('[data-field="sellOffer"]')).toHaveText('—');

  // The seller's form starts at $1 (nobody sells) with all units but one; Enter sends it.
  await page.goto(`/items-detail/${itemType}/my-items`);
  const form = page.getByRole('form', { name: 'Create Sell Offer' });
  await expect(form.getByLabel('Price ($)')).toHaveValue('1');
  await expect(form.getByLabel('Quantity')).toHaveValue(String(Math.max(1, owned - 1)));
  await form.getByLabel('Quantity').fill('999');
  await expect(form.getByLabel('Quantity')).toHaveValue(String(owned));
  await form.getByLabel('Quantity').fill('1');
  await form.getByLabel('Price ($)').fill('1,50');
  await expect(form.getByTestId('offer-total')).toHaveText('$1.50');
  await form.getByLabel('Price ($)').press('Enter');
  await expect(page.getByTestId('own-sell-offer')).toContainText('1 × $1.50');
  await expect(page.getByTestId('market-count')).toHaveText('1');
  await expect(page.getByTestId('market-price')).toHaveText('$1.50');
  await page.screenshot({ path: shot(info.project.name, 'market-sell'), fullPage: true });

  // The store tile moves without a reload.
  await expect(tile.locator('[data-field="market"]')).toHaveText('1');
  await expect(tile.locator('[data-field="sellOffer"]')).toHaveText('$1.50');

  // On BUY, with no money: the server's 402 opens the top-up popup with the shortfall.
  await tile.click();
  await expect(buyer.page.getByRole('tab', { name: 'BUY' })).toHaveAttribute('aria-selected', 'true');
  await buyer.page.getByRole('button', { name: 'Buy for $1.50' }).click();
  const topUpPopup = buyer.page.getByRole('dialog', { name: 'Top up' });
  await expect(topUpPopup).toContainText('You need $1.50 more for this.');
  await buyer.page.screenshot({ path: shot(info.project.name, 'market-402') });
  await buyer.page.keyboard.press('Escape');
  await expect(topUpPopup).toBeHidden();

  await topUp(buyer.page, 500);
  await expect(balanceOf(buyer.page)).toHaveText('$5');
  // The order is held back half a second on its way, so the pending state can be seen however fast the server is.
  await buyer.page.route('**/api/market/buy', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 500));
    await route.continue();
  });
  await buyer.page.getByRole('button', { name: 'Buy for $1.50' }).click();
  await expect(buyer.page.getByRole('button', { name: 'Buying...' })).toBeVisible();
  await expect(buyer.page.getByText(`Bought 1 ${name}.`)).toBeVisible();
  await buyer.page.unroute('**/api/market/buy');
  await expect(balanceOf(buyer.page)).toHaveText('$3.50');
  await expect(buyer.page.getByTestId('owned')).toHaveText('1');
  await expect(buyer.page.getByTestId('market-price')).toHaveText('Nobody sells');
  await expect(buyer.page.getByRole('button', { name: 'Buy', exact: true })).toBeDisabled();
  await expect(buyer.page.getByText(`Nobody is selling ${name}`)).toBeVisible();

  // The seller's screen follows: the offer is gone, the money arrived.
  await expect(page.getByTestId('own-sell-offer')).toHaveCount(0);
  await expect(page.getByTestId('market-count')).toHaveText('0');
  await expect(page.getByTestId('market-price')).toHaveText('Nobody sells');
  await expect(page.getByTestId('owned')).toHaveText(String(owned - 1));
  await expect(balanceOf(page)).toHaveText('$1.50');
  await buyer.context.close();
});

test('buy offers and sell offers: the form, the popups, selling to a buyer, a short balance and cancelling', async ({
  page,
  browser,
}, info) => {
  await signUp(page);
  await topUp(page, 500);
  const seller = await otherUser(browser, page, info);
  const { itemType, owned, name } = await mostOwnedItem(seller.page);

  // The form is hidden until 'Offer Price'; a successful offer closes it.
  await page.goto(`/items-detail/${itemType}/item-store`);
  await expect(page.getByRole('form', { name: 'Create Buy Offer' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Offer Price' }).click();
  const form = page.getByRole('form', { name: 'Create Buy Offer' });
  await form.getByLabel('Price ($)').fill('0');
  await expect(form.getByRole('button', { name: 'Create Buy Offer' })).toBeDisabled();
  await form.getByLabel('Price ($)').fill('0.80');
  await form.getByLabel('Quantity').fill('2');
  await page.screenshot({ path: shot(info.project.name, 'market-buy-form'), fullPage: true });
  await form.getByLabel('Quantity').press('Enter');
  await expect(form).toHaveCount(0);
  await expect(page.getByTestId('own-buy-offer')).toContainText('2 × $0.80');
  await expect(balanceOf(page)).toHaveText('$3.40');

  // The seller sells one unit to that offer from the buy offers popup; the row keeps one unit.
  await seller.page.goto(`/items-detail/${itemType}/my-items`);
  await expect(seller.page.getByTestId('best-buy')).toHaveText('$0.80');
  await seller.page.getByRole('button', { name: 'Buy offers' }).click();
  const sellerPopup = seller.page.getByRole('dialog', { name: 'Buy offers' });
  const row = sellerPopup.getByTestId('offer-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('2 ×');
  await expect(row).toContainText('$0.80');
  await seller.page.screenshot({ path: shot(info.project.name, 'market-buy-offers-popup') });
  await row.getByRole('button', { name: /^Sell to .* for \$0\.80$/ }).click();
  await expect(sellerPopup.getByText(`Sold 1 ${name} to`)).toBeVisible();
  await expect(row).toContainText('1 ×');
  await expect(balanceOf(seller.page)).toHaveText('$0.80');
  await seller.page.keyboard.press('Escape');
  await expect(seller.page.getByTestId('owned')).toHaveText(String(owned - 1));

  // The buyer got the unit live; its own offer in the popup cannot be taken.
  await expect(page.getByTestId('owned')).toHaveText('1');
  await expect(page.getByTestId('own-buy-offer')).toContainText('1 × $0.80');
  await page.getByRole('tab', { name: 'SELL' }).click();
  await page.getByRole('button', { name: 'Buy offers' }).click();
  const ownRow = page.getByRole('dialog', { name: 'Buy offers' }).getByTestId('offer-row');
  await expect(ownRow).toContainText('Your offer');
  await expect(ownRow.getByRole('button')).toHaveCount(0);
  await page.keyboard.press('Escape');

  // Selling at or below one's own buy offer is refused in the form.
  const sellForm = page.getByRole('form', { name: 'Create Sell Offer' });
  await sellForm.getByLabel('Price ($)').fill('0.80');
  await expect(sellForm.getByText('You are buying for $0.80')).toBeVisible();
  await expect(sellForm.getByRole('button', { name: 'Create Sell Offer' })).toBeDisabled();
  await sellForm.getByLabel('Price ($)').fill('3');
  await sellForm.getByRole('button', { name: 'Create Sell Offer' }).click();
  await expect(page.getByTestId('own-sell-offer')).toContainText('1 × $3');

  // The seller, with 80¢, tries to buy that unit from the sell offers popup: the top-up popup asks for the rest.
  await seller.page.getByRole('tab', { name: 'BUY' }).click();
  await seller.page.getByRole('button', { name: 'Sell offers' }).click();
  const sellOffers = seller.page.getByRole('dialog', { name: 'Sell offers' });
  await expect(sellOffers.getByTestId('offer-row')).toContainText('$3');
  await seller.page.screenshot({ path: shot(info.project.name, 'market-sell-offers-popup') });
  await sellOffers.getByRole('button', { name: /^Buy from .* for \$3$/ }).click();
  await expect(seller.page.getByRole('dialog', { name: 'Top up' })).toContainText('You need $2.20 more for this.');
  await seller.page.keyboard.press('Escape');

  // Cancelling: the sell offer's unit and the buy offer's money come back.
  await page.getByTestId('own-sell-offer').getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('own-sell-offer')).toHaveCount(0);
  await page.getByRole('tab', { name: 'BUY' }).click();
  await page.getByTestId('own-buy-offer').getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('own-buy-offer')).toHaveCount(0);
  await expect(balanceOf(page)).toHaveText('$4.20');
  await page.getByRole('button', { name: 'Sell offers' }).click();
  await expect(page.getByRole('dialog', { name: 'Sell offers' })).toContainText('No one is selling this item.');
  await seller.context.close();
});

test('the graphs: locked, the top-up popup when short of $1, unlocked, then drawn', async ({ page, browser }, info) => {
  // A trade, so there is something to draw.
  const seller = await otherUser(browser, page, info);
  const { itemType } = await mostOwnedItem(seller.page);
  await marketCall(seller.page, '/api/market/generic-sell-offer', { itemType, quantity: 1, price: 125 });
  await signUp(page);

  // Short of $1: the top-up popup opens for the difference, and nothing is asked of the server.
  await topUp(page, 30);
  const unlockCalls: string[] = [];
  page.on('request', (req) => req.url().includes('/api/user/graph-item') && unlockCalls.push(req.url()));
  await page.goto(`/items-detail/${itemType}/graph`);
  await expect(page.getByRole('tab', { name: 'DETAILS' })).toHaveAttribute('aria-selected', 'true');
  const unlock = page.getByRole('button', { name: '$1 Unlock all graphs' });
  await expect(unlock).toBeVisible();
  await page.screenshot({ path: shot(info.project.name, 'market-graphs-locked'), fullPage: true });
  await unlock.click();
  await expect(page.getByRole('dialog', { name: 'Top up' })).toContainText('You need $0.70 more for this.');
  await page.keyboard.press('Escape');
  expect(unlockCalls).toEqual([]);

  await topUp(page, 300);
  await expect(balanceOf(page)).toHaveText('$3.30');
  await marketCall(page, '/api/market/buy', { itemType, requestedPrice: 125, balance: 330 });
  await expect(balanceOf(page)).toHaveText('$2.05');
  await unlock.click();
  await expect(page.getByTestId('last-trades-chart').locator('canvas')).toBeVisible();
  await expect(page.getByTestId('months-chart').locator('canvas')).toBeVisible();
  await expect(balanceOf(page)).toHaveText('$1.05');
  await page.screenshot({ path: shot(info.project.name, 'market-graphs'), fullPage: true });

  // Unlocked for every item: one nobody traded says so.
  const untraded = itemType === 'ELUSIVE_EMOJI_UNICORN' ? 'EPIC_EMOJI_CROWN' : 'ELUSIVE_EMOJI_UNICORN';
  await page.goto(`/items-detail/${untraded}/graph`);
  await expect(page.getByText('Item was not traded yet')).toBeVisible();
  await seller.context.close();
});
