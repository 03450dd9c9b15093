import { itemOf } from '../../../common/items';
import { checkText, writerOf, type Writer } from '../../../common/writing';
import type { AppContext } from '../context';
import { sendMessage } from '../modules/chat/chat.commands';
import { ownedItems } from '../modules/items/items.service';

/** How many messages the demo room holds at most, and how far back the first one was sent. */
const MESSAGES = 14;
const MINUTE = 60_000;
const FIRST_AGO = 3 * 60 * MINUTE;

/**
 * What demo users may say: short, friendly lines of common letters. Each user says only the lines their own letters
 * can write (the writing rules of common/writing.ts, as for anyone), so which lines appear depends on what their
 * lootboxes found.
 */
const LINES = [
  'hi all',
  'hello',
  'hey there',
  'yo',
  'nice wall',
  'love it',
  'so good',
  'wow',
  'cool',
  'lol',
  'gg',
  'ok',
  'yes',
  'no way',
  'on top',
  'to the top',
  'go go go',
  'fire',
  'trending now',
  'new letters',
  'need an e',
  'who sells a',
  'who has it',
  'got it',
  'open a box',
  'that is art',
  'i am in',
  'nice one',
  'Nice one!',
  'Hello there.',
  'Good luck, all!',
  'See you soon',
];

/** The lines this writer can send, each with an emoji they own after it when one can be written there. */
function linesFor(writer: Writer, random: () => number): string[] {
  const emojis = [...writer.emojis].map((code) => itemOf(code)!.emoji);
  return LINES.flatMap((line) => {
    if (!checkText(line, writer).ok) return [];
    const emoji = emojis[Math.floor(random() * emojis.length)];
    const decorated = emoji && random() < 0.4 ? `${line} ${emoji}` : undefined;
    return [decorated && checkText(decorated, writer).ok ? decorated : line];
  });
}

function shuffle<T>(list: T[], random: () => number): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list;
}

/**
 * The demo's chat room (docs/product.md#operations: a newcomer sees a living room, as a living wall): the demo users,
 * who found their letters and emojis in real lootboxes (demo-market.ts), take turns over the last three hours, each
 * writing only what they own. Every message goes through the chat's own command: the writing rules, the price, the
 * payment through the ledger, so the books balance as for any message. Answers how many were sent.
 */
export async function seedDemoChat(ctx: AppContext, userIds: number[], random: () => number): Promise<number> {
  const said = new Map<number, string[]>();
  for (const userId of userIds) {
    // Each user's lines in an order of their own, so the room does not read like the list above.
    said.set(userId, shuffle(linesFor(writerOf(await ownedItems(ctx.db, userId)), random), random));
  }
  const now = ctx.now().getTime();
  let sent = 0;
  for (let turn = 0; sent < MESSAGES && turn < MESSAGES * userIds.length; turn++) {
    const userId = userIds[Math.floor(random() * userIds.length)]!;
    const message = said.get(userId)!.shift();
    if (!message) continue;
    // Spread over the last three hours, oldest first, a few minutes apart: the price stays at its base.
    const at = new Date(now - FIRST_AGO + Math.floor(((sent + random() * 0.5) * FIRST_AGO) / MESSAGES));
    await ctx.transact((work) =>
      sendMessage(work, {
        userId,
        message,
        // Any price is accepted: the seed pays what the room asks at that moment, as a user who saw it would.
        sendAmount: 1_000_000,
        now: at,
        baseUnitPrice: ctx.config.chatBaseUnitPrice,
      }),
    );
    sent += 1;
  }
  return sent;
}
