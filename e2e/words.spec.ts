import type { Page } from '@playwright/test';
import { expect, signUp, test } from './fixtures';
import { otherUser } from './market-helpers';
import { signedInRoutes } from './routes';
import { richUsers } from './screens-helpers';

/**
 * What must not reach a screen: an internal code, capitals joined by underscores (COMMON_LETTER_F,
 * UNCOMMON_EMOJI_HEART, IMAGE_COMMENT); a status as its code (PENDING); an age as a bare unit letter (3m, 2d).
 */
const CODES = [/\b[A-Z]+_[A-Z_]+\b/g, /\b(PENDING|FORWARDED|APPROVED|REJECTED)\b/g, /\b\d+(m|h|d|mo|y)\b/g];

/**
 * What a person can read on the page: its text, and the names and tips of the visible elements (title, aria-label,
 * alt, placeholder, and the tooltip text the shell shows on hover).
 */
function readable(page: Page): Promise<string> {
  return page.evaluate(() => {
    const attributes = ['title', 'aria-label', 'alt', 'placeholder', 'data-tip'];
    const parts = [document.title, document.body.innerText];
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      if (!el.checkVisibility?.() && el.offsetParent === null) continue;
      for (const a of attributes) {
        const v = el.getAttribute(a);
        if (v) parts.push(v);
      }
    }
    return parts.join('\n');
  });
}

/** Waits for the screen's data: no request in flight and no loading text left (a screen stuck loading is read as is). */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page
    .getByText(/^(Loading\.\.\.|Loading notifications\.\.\.|Please wait\.\.\.)$/)
    .first()
    .waitFor({ state: 'hidden', timeout: 5_000 })
    .catch(() => {});
}

test('no screen shows an internal code: every route, with data in every list', async ({ page, browser }, info) => {
  test.setTimeout(240_000);
  await signUp(page);
  const other = await otherUser(browser, page, info);
  const data = await richUsers(page, other.page);
  // Five minutes on in the browser: every age on screen is then old enough to show its unit.
  await page.clock.setFixedTime(new Date(Date.now() + 5 * 60_000));
  const { pictureId, userId, otherId, sold, bought } = data;

  const routes = [
    ...signedInRoutes({ pictureId, userId, items: { graph: sold, myItems: sold, store: bought } }),
    `/profile/${otherId}`,
    '/verify-email',
    '/my-donations',
    '/public-donations',
    '/week',
  ];

  const found: string[] = [];
  const scan = async (where: string) => {
    const text = await readable(page);
    const codes = [...new Set(CODES.flatMap((code) => text.match(code) ?? []))];
    if (codes.length > 0) found.push(`${where}: ${codes.join(', ')}`);
  };

  for (const route of routes) {
    await page.goto(route);
    await settle(page);
    await scan(route);
  }

  // What opens over a page: the notifications' bubble with all of them, the chat bubble, the offers popups.
  await page.goto('/notifications');
  await settle(page);
  const all = page.getByRole('button', { name: 'All', exact: true });
  if (await all.isVisible()) {
    await all.click();
    await settle(page);
    await scan('/notifications (All)');
  }
  await page.goto('/');
  await settle(page);
  await page.getByRole('button', { name: 'Open notifications' }).click();
  await settle(page);
  await scan('/ (notifications bubble)');
  await page.keyboard.press('Escape');
  await page.goto('/');
  await page.getByRole('button', { name: 'Open chat' }).click();
  await settle(page);
  await scan('/ (chat bubble)');
  for (const [item, tab, button] of [
    [sold, 'my-items', 'Buy offers'],
    [data.resting, 'item-store', 'Sell offers'],
  ] as const) {
    await page.goto(`/items-detail/${item}/${tab}`);
    await settle(page);
    await page.getByRole('button', { name: button }).click();
    await settle(page);
    await scan(`/items-detail/${item}/${tab} (${button})`);
  }

  expect(found, 'routes showing internal codes').toEqual([]);
  await other.context.close();
});
