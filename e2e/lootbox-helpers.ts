import type { Page } from '@playwright/test';
import type { ItemDetails } from '../common/api/items';
import { expect } from './fixtures';
import { topUp } from './pictures-helpers';

export interface Loot {
  lootSequence: string[];
  openSequence: string;
  lootFound: boolean;
}

/** Through the API, as the lootboxes page would: money, keys and free boxes for the signed-in user. */
export async function stockUp(page: Page, { keys = 0, boxes = 0 }: { keys?: number; boxes?: number }): Promise<void> {
  if (keys > 0) {
    await topUp(page, keys * 100);
    const res = await page.request.post('/api/purchase/key', { data: { keyCount: keys, balance: keys * 100 } });
    expect(res.status(), await res.text()).toBe(200);
  }
  for (let i = 0; i < boxes; i++) {
    const res = await page.request.post('/api/purchase/lootbox', { data: {} });
    expect(res.status(), await res.text()).toBe(200);
  }
}

/** Opens `count` boxes through the API (each needs a box and a key); answers what they found. */
export async function openBoxes(page: Page, count: number): Promise<Loot[]> {
  await stockUp(page, { keys: count, boxes: count });
  const found: Loot[] = [];
  for (let i = 0; i < count; i++) {
    const res = await page.request.post('/api/open/lootbox', { data: {} });
    expect(res.status(), await res.text()).toBe(200);
    found.push((await res.json()) as Loot);
  }
  return found;
}

/** How many of each item a list of codes holds. */
export function tally(codes: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const code of codes) counts.set(code, (counts.get(code) ?? 0) + 1);
  return counts;
}

/** Up to 8 lowercase letters the user owns, as one word (a lowercase letter needs only that letter). */
export function ownedLettersWord(details: ItemDetails[]): string {
  return details
    .filter((i) => i.rarity === 1 && i.user.quantity > 0)
    .map((i) => i.emoji.toLowerCase())
    .slice(0, 8)
    .join('');
}
