import type { APIRequestContext, Page } from '@playwright/test';
import type { Comment } from '../common/api/comments';
import type { ItemDetails } from '../common/api/items';
import { chatCost } from '../common/writing';
import { expect } from './fixtures';
import { openBoxes } from './lootbox-helpers';
import { myId, topUp, uploadPicture } from './pictures-helpers';

/** A JSON call through a page's cookies with an idempotency key of its own; fails the test unless it is 200. */
export async function ok<T = unknown>(request: APIRequestContext, path: string, data: object = {}): Promise<T> {
  const res = await request.post(path, { data, headers: { 'idempotency-key': crypto.randomUUID() } });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  return (await res.json().catch(() => null)) as T;
}

export const details = async (page: Page): Promise<ItemDetails[]> =>
  (await (await page.request.get('/api/items/details')).json()) as ItemDetails[];

/** A lowercase word of letters the user owns (a lowercase letter needs only that letter). */
export async function ownedWord(page: Page): Promise<string> {
  const letters = (await details(page)).filter((i) => i.rarity === 1 && i.user.quantity > 0);
  expect(letters.length, 'letters owned').toBeGreaterThan(0);
  return letters
    .map((i) => i.emoji.toLowerCase())
    .slice(0, 4)
    .join('')
    .padEnd(3, letters[0]!.emoji.toLowerCase());
}

/** An emoji item the user owns (their lootboxes found one). */
export async function ownedEmoji(page: Page): Promise<string> {
  const emoji = (await details(page)).find((i) => i.rarity > 1 && i.user.quantity > 0);
  expect(emoji, 'an emoji found in the lootboxes').toBeDefined();
  return emoji!.itemType;
}

/** Sends a chat message of the user's own letters at the current price. */
export async function chat(page: Page, text: string): Promise<void> {
  const { unitPrice } = (await (await page.request.get('/api/chat-room/unit-price')).json()) as { unitPrice: number };
  await ok(page.request, '/api/user/message', { message: text, sendAmount: chatCost(text, unitPrice) * 2 });
}

/** Items owned by `page`'s user whose book is empty, most owned first (a fresh book: no older test's offers). */
async function freeItems(page: Page, minQuantity: number): Promise<string[]> {
  return (await details(page))
    .filter((i) => i.user.quantity >= minQuantity && i.market.quantity === 0 && i.market.bestBo === null)
    .filter((i) => i.rarity < 5)
    .sort((a, b) => b.user.quantity - a.user.quantity)
    .map((i) => i.itemType);
}

export interface RichData {
  pictureId: number;
  userId: number;
  otherId: number;
  /** An item `me` sold to `other`, and one `me` bought from `other`. */
  sold: string;
  bought: string;
  /** An item `me` offers for sale, resting on the book. */
  resting: string;
}

/**
 * Two users who did everything the screens show: `me` (the page) owns items from lootboxes, uploaded a picture that
 * `other` commented on, replied to, reacted to and funded; `me` commented, reacted, pinned, unlocked the graphs,
 * sold an item to `other` and bought one from them, has a sell and a buy offer resting, and both chatted. So `me`
 * has a statement row of every type, notifications of several topics, goodwill shares, offers and chat messages.
 */
export async function richUsers(me: Page, other: Page): Promise<RichData> {
  await openBoxes(me, 6);
  await openBoxes(other, 6);
  await topUp(me, 5_000);
  await topUp(other, 5_000);
  const pictureId = await uploadPicture(me, 300);

  // Comments, a reply, reactions both ways, a pin, a fund.
  const theirs = await ok<Comment>(other.request, '/api/picture/comment', {
    pictureId,
    comment: await ownedWord(other),
    balance: 5_000,
  });
  const mine = await ok<Comment>(me.request, '/api/picture/comment', {
    pictureId,
    comment: 'Thanks for coming by!',
    balance: 5_000,
  });
  await ok(other.request, '/api/picture/comment', {
    pictureId,
    comment: await ownedWord(other),
    responseTo: mine.id,
    balance: 5_000,
  });
  await ok(other.request, '/api/picture/comment/reaction', {
    commentId: mine.id,
    reactionType: await ownedEmoji(other),
    price: 15,
    balance: 5_000,
  });
  await ok(me.request, '/api/picture/comment/reaction', {
    commentId: theirs.id,
    reactionType: await ownedEmoji(me),
    price: 20,
    balance: 5_000,
  });
  await ok(me.request, '/api/picture/comment/pin', { commentId: theirs.id, balance: 5_000 });
  await ok(other.request, '/api/payment/checkout-with-image-fund', { imageId: pictureId, amount: 200, balance: 5_000 });
  await ok(me.request, '/api/user/graph-item', { balance: 5_000 });

  // The market: me sells one unit to other, other sells one to me, and me leaves an ask and a bid resting.
  const [sold, resting] = await freeItems(me, 1);
  const bought = (await freeItems(other, 1)).find((t) => t !== sold && t !== resting)!;
  expect(sold && resting && bought, 'items to trade').toBeTruthy();
  await ok(me.request, '/api/market/generic-sell-offer', { itemType: sold, quantity: 1, price: 120 });
  await ok(other.request, '/api/market/buy', { itemType: sold, requestedPrice: 120, balance: 5_000 });
  await ok(me.request, '/api/market/generic-buy-offer', { itemType: bought, quantity: 1, price: 90, balance: 5_000 });
  await ok(other.request, '/api/market/sell-to-user', { itemType: bought, price: 90, userId: await myId(me) });
  await ok(me.request, '/api/market/generic-sell-offer', { itemType: resting!, quantity: 1, price: 500 });
  await ok(me.request, '/api/market/generic-buy-offer', { itemType: sold, quantity: 2, price: 30, balance: 5_000 });

  await chat(other, await ownedWord(other));
  await chat(me, await ownedWord(me));
  return { pictureId, userId: await myId(me), otherId: await myId(other), sold: sold!, bought, resting: resting! };
}
