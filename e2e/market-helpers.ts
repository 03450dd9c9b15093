import type { Browser, Page, TestInfo } from '@playwright/test';
import type { ItemDetails } from '../common/api/items';
import { itemOf } from '../common/items';
import { expect, signUp } from './fixtures';
import { openBoxes, tally } from './lootbox-helpers';

/**
 * Of what the user found in `boxes` fresh boxes, the item they have most of whose book is empty (the tests share one
 * server, and a retried test must not meet the offers its failed try left), never an elusive one (the lootbox
 * tests count the elusive units on sale). Answers how many they own and its name.
 */
export async function mostOwnedItem(page: Page, boxes = 3): Promise<{ itemType: string; owned: number; name: string }> {
  const found = tally((await openBoxes(page, boxes)).flatMap((l) => l.lootSequence));
  const details = (await (await page.request.get('/api/items/details')).json()) as ItemDetails[];
  const emptyBook = new Set(
    details.filter((i) => i.market.quantity === 0 && i.market.bestBo === null && i.rarity < 5).map((i) => i.itemType),
  );
  const [itemType, owned] = [...found.entries()]
    .filter(([code]) => emptyBook.has(code))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]!;
  return { itemType, owned, name: itemOf(itemType)!.name };
}

/** Another signed-up user in a browser of their own, at the test's width. */
export async function otherUser(browser: Browser, page: Page, info: TestInfo) {
  const phone = info.project.name === 'phone';
  const context = await browser.newContext({ viewport: page.viewportSize()!, hasTouch: phone, isMobile: phone });
  const other = await context.newPage();
  await signUp(other);
  return { context, page: other };
}

/** A market call through the API, as the item detail would make it (one key per action). */
export async function marketCall(page: Page, path: string, data: object): Promise<unknown> {
  const res = await page.request.post(path, { data, headers: { 'idempotency-key': crypto.randomUUID() } });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

export const balanceOf = (page: Page) => page.getByTestId('balance').first();
