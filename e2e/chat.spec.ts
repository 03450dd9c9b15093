import type { ItemDetails } from '../common/api/items';
import { formatPrice } from '../common/money';
import { chatCost } from '../common/writing';
import { expect, isPhone, signUp, test } from './fixtures';
import { openBoxes, ownedLettersWord } from './lootbox-helpers';
import { balanceOf, otherUser } from './market-helpers';
import { shot, topUp } from './pictures-helpers';

/** A word of the lowercase letters the user owns. */
async function ownedWord(page: import('@playwright/test').Page): Promise<string> {
  const word = ownedLettersWord((await (await page.request.get('/api/items/details')).json()) as ItemDetails[]);
  expect(word.length).toBeGreaterThan(0);
  return word;
}

test('two browsers chat live: one sends, the other sees it arrive, the sender pays', async ({
  page,
  browser,
}, info) => {
  await signUp(page);
  await openBoxes(page, 2);
  await topUp(page, 500);
  const word = await ownedWord(page);
  const reader = await otherUser(browser, page, info);

  await reader.page.goto('/chat');
  await expect(reader.page.getByRole('region', { name: 'General chat room' })).toBeVisible();
  await page.goto('/chat');
  await expect(page).toHaveTitle(/Chat/);
  // Both signed in with the room open: one other, plus me.
  await expect(page.getByTestId('chat-online')).toHaveText('2 online');
  await expect(reader.page.getByTestId('chat-online')).toHaveText('2 online');
  // No bubble on the room's own page.
  await expect(page.getByRole('button', { name: 'Open chat' })).toHaveCount(0);

  const before = await balanceOf(page).textContent();
  const unitPrice = ((await (await page.request.get('/api/chat-room/unit-price')).json()) as { unitPrice: number })
    .unitPrice;
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.fill(word);
  const cost = chatCost(word, unitPrice);
  await expect(page.getByTestId('chat-cost')).toHaveText(formatPrice(cost));
  // A character the user does not own is refused as typed, with the hint.
  await input.press('1');
  await expect(page.getByRole('status')).toHaveText('At least 20 letters required to write numbers');
  await expect(input).toHaveValue(word);
  await input.press('Enter');
  await expect(input).toHaveValue('');

  const mine = page.getByTestId('chat-message').filter({ hasText: word }).last();
  await expect(mine).toBeVisible();
  const arrived = reader.page.getByTestId('chat-message').filter({ hasText: word }).last();
  await expect(arrived).toBeVisible();
  await expect(arrived.getByRole('link').last()).toHaveAttribute('href', /\/profile\/\d+$/);
  expect(before).not.toBeNull();
  await expect(balanceOf(page)).not.toHaveText(before!);
  await page.screenshot({ path: shot(info.project.name, 'chat-sender') });
  await reader.page.screenshot({ path: shot(info.project.name, 'chat-reader') });

  // The emoji picker opens for a signed-in user and closes on a click outside.
  await page.getByRole('button', { name: 'Emojis' }).click();
  await expect(page.getByRole('dialog', { name: 'Your emojis' })).toBeVisible();
  await page.getByRole('heading', { name: 'General' }).click();
  await expect(page.getByRole('dialog', { name: 'Your emojis' })).toBeHidden();
  await reader.context.close();
});

test('an empty room says so, and a visitor (in the bubble: /chat is for the signed-in) is asked to sign in on send', async ({
  page,
}, info) => {
  test.skip(isPhone(page), 'the floating bubbles are the desktop layout’s (docs/decisions.md)');
  await page.route('**/api/last-50-messages', (route) => route.fulfill({ json: [] }));
  await page.goto('/');
  await page.getByRole('button', { name: 'Open chat' }).click();
  const panel = page.getByRole('dialog', { name: 'Chat' });
  await expect(panel.getByText('There are no messages in this room yet')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Emojis' })).toHaveCount(0);
  await page.screenshot({ path: shot(info.project.name, 'chat-empty') });
  await panel.getByRole('button', { name: /^Send/ }).click();
  await expect(page.getByRole('dialog', { name: 'Sign in' })).toBeVisible();
});

test('the floating bubble opens a small room, closes, and is hidden on /chat', async ({ page }, info) => {
  await signUp(page);
  if (isPhone(page)) {
    // Below 1230 px the bottom bar's Chat stands for the bubble, which would lie on the page's own controls.
    await page.goto('/');
    await expect(page.getByTestId('bottom-bar').getByRole('link', { name: 'Chat' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Open chat' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open notifications' })).toBeHidden();
    return;
  }
  await page.goto('/');
  await page.getByRole('button', { name: 'Open chat' }).click();
  const panel = page.getByRole('dialog', { name: 'Chat' });
  await expect(panel.getByRole('heading', { name: 'General' })).toBeVisible();
  await expect(panel.getByRole('textbox', { name: 'Message' })).toBeVisible();
  await page.screenshot({ path: shot(info.project.name, 'chat-bubble') });
  await panel.getByRole('button', { name: 'Close chat' }).click();
  await expect(panel).toBeHidden();
  await expect(page.getByRole('button', { name: 'Open chat' })).toBeVisible();
  await page.goto('/chat');
  await expect(page.getByRole('region', { name: 'General chat room' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Open chat' })).toHaveCount(0);
});
