import type { Browser, Page, TestInfo } from '@playwright/test';
import type { ItemDetails } from '../common/api/items';
import { chatCost } from '../common/writing';
import { expect, signUp } from './fixtures';
import { ownedLettersWord } from './lootbox-helpers';
import { marketCall, mostOwnedItem, otherUser } from './market-helpers';
import { myId, topUp, uploadPicture } from './pictures-helpers';

/** What the layout check's signed-in user has, so every screen shows rows rather than its empty text. */
export interface LayoutData {
  me: number;
  pictureId: number;
  commentText: string;
  itemType: string;
  close: () => Promise<void>;
}

const key = () => ({ 'idempotency-key': crypto.randomUUID() });

async function post(page: Page, path: string, data: object): Promise<unknown> {
  const res = await page.request.post(path, { data, headers: key() });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  return res.json();
}

const details = async (page: Page) => (await (await page.request.get('/api/items/details')).json()) as ItemDetails[];

/**
 * Through the API, as the screens would: the page's user (signed in) and a second user. The user gets a picture
 * with a comment, a reply and a reaction, chat messages both ways, a sale and a purchase on the market, open offers,
 * unlocked graphs, inventory and a lootbox history, notifications of all of it, and a statement with rows.
 */
export async function seedLayoutData(page: Page, browser: Browser, info: TestInfo): Promise<LayoutData> {
  await signUp(page);
  const other = await otherUser(browser, page, info);
  const them = other.page;

  // Items and a lootbox history for both; money to spend.
  const { itemType } = await mostOwnedItem(page, 4);
  await mostOwnedItem(them, 3);
  await topUp(page, 5_000);
  await topUp(them, 3_000);

  // A picture with comments: theirs, the author's reply, a pin and a reaction when the author owns an emoji.
  const pictureId = await uploadPicture(page, 300);
  await uploadPicture(them, 200, [500, 400]);
  const theirWord = ownedLettersWord(await details(them));
  const commentText = `${theirWord} ${theirWord}`.trim();
  const comment = (await post(them, '/api/picture/comment', { pictureId, comment: commentText, balance: 3_000 })) as {
    id: number;
  };
  await post(page, '/api/picture/comment', {
    pictureId,
    comment: 'Thank you, Friend! This one took me a long afternoon of waiting for the light.',
    balance: 5_000,
    responseTo: comment.id,
  });
  await post(page, '/api/picture/comment', { pictureId, comment: 'Welcome to my corner.', balance: 5_000 });
  await post(page, '/api/picture/comment/pin', { commentId: comment.id, balance: 5_000 });
  const emoji = (await details(page)).find((d) => d.rarity > 1 && d.user.quantity > 0);
  if (emoji) {
    await post(page, '/api/picture/comment/reaction', {
      commentId: comment.id,
      reactionType: emoji.itemType,
      price: 25,
      balance: 5_000,
    });
  }
  await post(page, '/api/payment/checkout-with-image-fund', { imageId: pictureId, amount: 150, balance: 5_000 });

  // Chat both ways.
  const myWord = ownedLettersWord(await details(page));
  const say = async (who: Page, message: string) => {
    const price = (await (await who.request.get('/api/chat-room/unit-price')).json()) as { unitPrice: number };
    await post(who, '/api/user/message', { message, sendAmount: chatCost(message, price.unitPrice), balance: 3_000 });
  };
  await say(them, `${theirWord} ${theirWord} ${theirWord}`);
  await say(page, myWord);

  // The market: they buy from me, I buy from them, and offers stay open on my item.
  await marketCall(page, '/api/market/generic-sell-offer', { itemType, quantity: 1, price: 125 });
  await marketCall(them, '/api/market/buy', { itemType, requestedPrice: 125, balance: 3_000 });
  const { itemType: theirs } = await mostOwnedItem(them, 1);
  await marketCall(them, '/api/market/generic-sell-offer', { itemType: theirs, quantity: 1, price: 90 });
  await marketCall(page, '/api/market/buy', { itemType: theirs, requestedPrice: 90, balance: 5_000 });
  await marketCall(page, '/api/market/generic-sell-offer', { itemType, quantity: 1, price: 480 });
  await marketCall(them, '/api/market/generic-buy-offer', { itemType, quantity: 2, price: 60, balance: 3_000 });
  await post(page, '/api/user/graph-item', { balance: 5_000 });

  return { me: await myId(page), pictureId, commentText, itemType, close: () => other.context.close() };
}
