import type { Page } from '@playwright/test';
import type { Comment } from '../common/api/comments';
import type { ItemDetails } from '../common/api/items';
import { expect, isPhone, signUp, test } from './fixtures';
import { openBoxes } from './lootbox-helpers';
import { shot, topUp, uploadPicture } from './pictures-helpers';

/** A word of the letters the signed-in user owns. */
async function ownedWord(page: Page): Promise<string> {
  const details = (await (await page.request.get('/api/items/details')).json()) as ItemDetails[];
  const owned = details.filter((i) => i.rarity === 1 && i.user.quantity > 0).map((i) => i.itemType.slice(-1));
  expect(owned.length).toBeGreaterThan(0);
  return (owned[0]!.repeat(3) + (owned[1] ?? owned[0]!)).toLowerCase();
}

test('another user comments on my picture: the bell counts it live, the bubble and the page show it, a click goes to the comment and reads it in every tab', async ({
  page,
  browser,
}, info) => {
  await signUp(page);
  await topUp(page, 200);
  const pictureId = await uploadPicture(page, 100);
  await page.goto('/');
  const count = page.getByTestId('notification-count');
  // The floating bubble is the desktop's; below 1230 px the bottom bar's bell stands for it (docs/decisions.md).
  const bubbles = !isPhone(page);
  await expect(page.getByRole('button', { name: 'Open notifications' })).toBeVisible({ visible: bubbles });
  await expect(count).toHaveCount(0);

  // The bubble with nothing in it.
  if (bubbles) {
    await page.getByRole('button', { name: 'Open notifications' }).click();
    await expect(page.getByRole('dialog', { name: 'Notifications' })).toContainText('No notifications');
    await page.getByRole('button', { name: 'Close notifications' }).click();
  }

  // Another user, in a browser of their own, comments with the letters their lootboxes found.
  const phone = info.project.name === 'phone';
  const context = await browser.newContext({ viewport: page.viewportSize()!, hasTouch: phone, isMobile: phone });
  const other = await context.newPage();
  const commenter = await signUp(other);
  await openBoxes(other, 2);
  await topUp(other, 100);
  const text = await ownedWord(other);
  const res = await other.request.post('/api/picture/comment', { data: { pictureId, comment: text, balance: 100 } });
  expect(res.status(), await res.text()).toBe(200);
  const comment = (await res.json()) as Comment;

  // Live: the bell counts it without a reload (the header's bell on desktop, the bottom bar's on a phone).
  await expect(count.filter({ visible: true }).first()).toHaveText('1');
  const line = `${commenter.username} commented on your picture`;
  if (bubbles) {
    await page.getByRole('button', { name: 'Open notifications' }).click();
    const bubble = page.getByRole('dialog', { name: 'Notifications' });
    await expect(bubble.getByTestId('notification')).toHaveCount(1);
    await expect(bubble.getByTestId('notification')).toContainText(line);
    await expect(bubble.getByText('All notifications')).toHaveCount(0);
    await page.screenshot({ path: shot(info.project.name, 'notifications-bubble') });
    await page.getByRole('button', { name: 'Close notifications' }).click();
  }

  // The page: the phone's bell opens the bubble's content, the desktop's the full list with its filters.
  if (isPhone(page)) {
    await page.getByTestId('bottom-bar').getByRole('link', { name: 'Notifications' }).click();
    await expect(page).toHaveURL(/\/mobile-notifications$/);
  } else {
    await page.getByTestId('notification-bell').click();
    await expect(page).toHaveURL(/\/notifications$/);
    await expect(page.getByRole('button', { name: 'Unread' })).toBeVisible();
  }
  // No bubble on the notifications' own pages.
  await expect(page.getByRole('button', { name: 'Open notifications' })).toHaveCount(0);
  const row = page.getByTestId('notification').filter({ hasText: line });
  await expect(row).toBeVisible();
  await expect(row.getByRole('button', { name: 'Mark as read' })).toBeVisible();
  await page.screenshot({ path: shot(info.project.name, 'notifications-page') });

  // Another tab of the same user counts it too, until the click in the first tab reads it.
  const tab = await page.context().newPage();
  await tab.goto('/');
  const tabCount = tab.getByTestId('notification-count');
  await expect(tabCount.filter({ visible: true }).first()).toHaveText('1');

  // A click goes to the comment on the picture, and reads it, in this tab and, live, in the other.
  await row.getByText(line).click();
  await expect(page).toHaveURL(new RegExp(`/image/profile/${pictureId}#${comment.id}$`));
  await expect(page.getByTestId('comment').filter({ hasText: text })).toBeVisible();
  await expect(count).toHaveCount(0);
  await expect(tabCount).toHaveCount(0);
  await tab.close();

  if (!isPhone(page)) {
    await page.goto('/notifications');
    await expect(page.getByTestId('notification').filter({ hasText: line })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Mark as read' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Unread' }).click();
    await expect(page.getByText('No notifications to display.')).toBeVisible();
    await page.screenshot({ path: shot(info.project.name, 'notifications-unread-empty') });
  }
  await context.close();
});
