import type { ItemDetails } from '../common/api/items';
import { expect, signUp, test } from './fixtures';
import { openBoxes } from './lootbox-helpers';
import { balanceOf, otherUser } from './market-helpers';
import { shot, topUp, uploadPicture } from './pictures-helpers';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The letters the signed-in user owns, and one they do not. */
async function letters(page: import('@playwright/test').Page) {
  const details = (await (await page.request.get('/api/items/details')).json()) as ItemDetails[];
  const owned = details.filter((i) => i.rarity === 1 && i.user.quantity > 0).map((i) => i.itemType.slice(-1));
  const missing = [...ALPHABET].find((l) => !owned.includes(l))!;
  return { owned, missing };
}

test('a comment refused by a hint, then sent; the author replies and pins it live; a report is sent', async ({
  page,
  browser,
}, info) => {
  // The commenter owns the letters two lootboxes found, and $1.
  await signUp(page);
  await openBoxes(page, 2);
  await topUp(page, 100);
  const { owned, missing } = await letters(page);
  expect(owned.length).toBeGreaterThan(0);

  // The author's picture, open in the author's own browser.
  const author = await otherUser(browser, page, info);
  await topUp(author.page, 200);
  const pictureId = await uploadPicture(author.page, 100);
  await author.page.goto(`/image/detail/${pictureId}`);
  const authorPane = author.page.getByTestId('comments-pane');
  await expect(authorPane).toContainText('No comments yet.');

  await page.goto(`/image/detail/${pictureId}`);
  const pane = page.getByTestId('comments-pane');
  const input = pane.getByLabel('Write a comment');
  await expect(pane.getByText('15¢')).toBeVisible();

  // A letter the commenter does not own is refused as it is typed, with the hint for 2 s.
  await input.pressSequentially(missing.toLowerCase());
  await expect(pane.getByRole('status')).toHaveText(`You don't own Letter ${missing}`);
  await expect(input).toHaveValue('');
  await expect(pane.getByRole('button', { name: 'Send' })).toBeDisabled();
  await page.screenshot({ path: shot(info.project.name, 'comments-hint') });
  await expect(pane.getByRole('status')).toBeHidden({ timeout: 4_000 });

  // Owned letters go in; Enter sends, the balance pays 15¢, and the author sees it arrive live.
  const text = owned[0]!.toLowerCase().repeat(3) + (owned[1] ?? owned[0]!).toLowerCase();
  await input.pressSequentially(text);
  await expect(input).toHaveValue(text);
  await input.press('Enter');
  const mine = pane.getByTestId('comment').filter({ hasText: text });
  await expect(mine).toBeVisible();
  await expect(input).toHaveValue('');
  await expect(balanceOf(page)).toHaveText('$0.85');
  await expect(pane.getByRole('heading', { name: 'Comments (1)' })).toBeVisible();
  const theirs = authorPane.getByTestId('comment').filter({ hasText: text });
  await expect(theirs).toBeVisible();

  // The author writes with every letter on their own picture: a reply, live on the commenter's screen too.
  await theirs.getByRole('button', { name: 'Reply' }).click();
  const reply = authorPane.getByLabel('Write a reply');
  await reply.pressSequentially('Thanks, Friend! 100%');
  await authorPane.getByRole('button', { name: 'Reply', exact: true }).last().click();
  await expect(authorPane.getByText('Thanks, Friend! 100%')).toBeVisible();
  await expect(pane.getByRole('button', { name: 'Show 1 reply' })).toBeVisible();
  await pane.getByRole('button', { name: 'Show 1 reply' }).click();
  await expect(pane.getByText('Thanks, Friend! 100%')).toBeVisible();
  // Only a top-level comment offers 'reply'; only the author sees 'pin'.
  await expect(mine.getByRole('button', { name: 'Reply' })).toHaveCount(1);
  await expect(mine.getByRole('button', { name: /^Pin/ })).toHaveCount(0);

  // The author pins it for 1¢: both screens show it pinned.
  await theirs.getByRole('button', { name: 'Pin (1¢)' }).click();
  await expect(theirs.getByText('Pinned', { exact: true })).toBeVisible();
  await expect(theirs.getByRole('button', { name: /^Pin/ })).toHaveCount(0);
  await expect(mine.getByText('Pinned', { exact: true })).toBeVisible();
  await expect(balanceOf(author.page)).toHaveText('$0.84');
  await author.page.screenshot({ path: shot(info.project.name, 'comments-pane'), fullPage: true });

  // The author reports the comment: category and description are both required.
  await theirs.getByRole('button', { name: 'Report' }).first().click();
  const popup = author.page.getByRole('dialog', { name: 'Report comment' });
  await expect(popup).toBeVisible();
  const send = popup.getByRole('button', { name: 'Send report' });
  await expect(send).toBeDisabled();
  await popup.getByLabel('Category').selectOption({ label: 'Political Propaganda' });
  await expect(send).toBeDisabled();
  await popup.getByLabel('Description').fill('Not about the picture at all.');
  await author.page.screenshot({ path: shot(info.project.name, 'report-popup') });
  await send.click();
  await expect(popup.getByText('Thank you. The report was sent to the moderators.')).toBeVisible();
  await popup.getByRole('button', { name: 'Done' }).click();
  await expect(popup).toBeHidden();

  // A second report of the same comment says so.
  await theirs.getByRole('button', { name: 'Report' }).first().click();
  await popup.getByLabel('Category').selectOption('spam');
  await popup.getByLabel('Description').fill('Again.');
  await popup.getByRole('button', { name: 'Send report' }).click();
  await expect(popup.getByText('You already reported this message.')).toBeVisible();
  await author.context.close();
});

test('a visitor is asked to sign in to comment, and an address with #id scrolls to that comment', async ({
  page,
  browser,
}, info) => {
  await signUp(page);
  await topUp(page, 300);
  const pictureId = await uploadPicture(page, 100);
  // The author writes ten comments and more through the API; the last one is past the first ten shown.
  let last = 0;
  for (let i = 0; i < 12; i++) {
    const res = await page.request.post('/api/picture/comment', {
      data: { pictureId, comment: `Comment number ${i + 1}`, balance: 0 },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(res.status(), await res.text()).toBe(200);
    if (i === 0) last = ((await res.json()) as { id: number }).id;
  }

  const visitor = await browser.newContext({ viewport: page.viewportSize()! });
  const guest = await visitor.newPage();
  await guest.goto(`/image/detail/${pictureId}#${last}`);
  const pane = guest.getByTestId('comments-pane');
  // The oldest comment is 12th in the order: revealed and scrolled to.
  const anchored = guest.locator(`[id="${last}"]`);
  await expect(anchored).toBeInViewport();
  await expect(anchored).toContainText('Comment number 1');
  await guest.screenshot({ path: shot(info.project.name, 'comments-anchor') });
  await pane.getByRole('button', { name: 'Sign in to comment' }).click();
  await expect(guest.getByRole('dialog', { name: /sign in/i })).toBeVisible();
  await visitor.close();
});

test('a reaction: the owned emojis, a dollar amount, a short balance opens the top-up popup, then it shows', async ({
  page,
  browser,
}, info) => {
  // The reactor opens boxes, one at a time, until one of them found an emoji; that spends all their money.
  await signUp(page);
  let emoji: ItemDetails | undefined;
  for (let i = 0; i < 15 && !emoji; i++) {
    await openBoxes(page, 1);
    const details = (await (await page.request.get('/api/items/details')).json()) as ItemDetails[];
    emoji = details.find((d) => d.rarity > 1 && d.user.quantity > 0);
  }
  expect(emoji, 'an emoji from 15 boxes').toBeDefined();

  const author = await otherUser(browser, page, info);
  await topUp(author.page, 200);
  const pictureId = await uploadPicture(author.page, 100);
  const res = await author.page.request.post('/api/picture/comment', {
    data: { pictureId, comment: 'React to this, Friends!', balance: 0 },
    headers: { 'idempotency-key': crypto.randomUUID() },
  });
  expect(res.status(), await res.text()).toBe(200);
  await author.page.goto(`/image/detail/${pictureId}`);

  await page.goto(`/image/detail/${pictureId}`);
  const comment = page.getByTestId('comment').filter({ hasText: 'React to this, Friends!' });
  await comment.getByRole('button', { name: 'React' }).click();
  const amount = comment.getByLabel('Amount $');
  await expect(amount).toHaveValue('0.15');
  await expect(comment.getByRole('radio', { name: emoji!.name })).toBeVisible();
  await comment.getByRole('radio', { name: emoji!.name }).click();
  await amount.fill('0,00');
  await comment.getByRole('button', { name: 'React', exact: true }).last().click();
  await expect(comment.getByRole('alert')).toHaveText('The amount must be at least 0.01.');
  await amount.fill('0,25');
  await expect(amount).toHaveValue('0.25');
  await page.screenshot({ path: shot(info.project.name, 'comments-react-form') });

  // No money left: the server's 402 opens the top-up popup with the 25¢ missing.
  await comment.getByRole('button', { name: 'React', exact: true }).last().click();
  const topUpPopup = page.getByRole('dialog', { name: 'Top up' });
  await expect(topUpPopup).toContainText('more for this.');
  await page.keyboard.press('Escape');
  await topUp(page, 100);
  await comment.getByRole('button', { name: 'React', exact: true }).last().click();

  // The reaction shows on both screens; its list says who paid what.
  const chip = comment.getByRole('button', { name: '1 reactions: show who reacted' });
  await expect(chip).toBeVisible();
  await expect(
    author.page
      .getByTestId('comment')
      .filter({ hasText: 'React to this, Friends!' })
      .getByRole('button', { name: '1 reactions: show who reacted' }),
  ).toBeVisible();
  await chip.click();
  await expect(comment.getByRole('list', { name: 'Reactions' })).toContainText('25¢');
  await expect(balanceOf(page)).toHaveText('$0.75');
  await page.screenshot({ path: shot(info.project.name, 'comments-reactions') });
  await author.context.close();
});
