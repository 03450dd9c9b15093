import { CHAT_PRICE_WINDOW_MS, chatUnitPrice } from '../../../../common/chat';
import { chatCost, checkText, writerOf } from '../../../../common/writing';
import { audience, type Work } from '../../db/unit-of-work';
import { conflict, fieldError } from '../../http/errors';
import { sendChatMessage } from '../../ledger/commands';
import { blockersOf } from '../blocks/blocks.service';
import { ownedItems } from '../items/items.service';
import { queueChatPush } from '../push/push.service';
import { account } from '../../ledger/ledger';
import * as chat from './chat.repository';
import { presentMessage } from './chat.presenter';

export interface SendInput {
  userId: number;
  message: string;
  /** The cost the user saw; the current cost may not be above it. */
  sendAmount: number;
  now: Date;
  baseUnitPrice: number;
  /** Who has the room open anywhere (chat.service.ts inRoomNow); undefined: unknown, and no CHAT push goes. */
  inRoom?: ReadonlySet<number>;
}

/** A sent message's row, what it cost and the sender's balance after it; the route presents the message. */
export interface Sent {
  message: chat.MessageRow;
  cost: number;
  balance: number;
}

/**
 * POST /api/user/message (docs/product.md#chat): the writing rules, then, with the room taken, the price from the last
 * minute's messages; a cost above what the user saw is 409 with the unit price and charges nothing. Otherwise the
 * message, its payment (CHAT_MESSAGE, naming the message) and the room's count commit together, and the message
 * and the new price (when it moved) go out on `chat`.
 */
export async function sendMessage(work: Work, input: SendInput): Promise<Sent> {
  const writer = writerOf(await ownedItems(work.tx, input.userId));
  const check = checkText(input.message, writer);
  if (!check.ok) throw fieldError('message', check.hint);

  const room = await chat.lockRoom(work.tx);
  const recent = await chat.countSince(work.tx, new Date(input.now.getTime() - CHAT_PRICE_WINDOW_MS));
  const unitPrice = chatUnitPrice(input.baseUnitPrice, recent);
  const cost = chatCost(input.message, unitPrice);
  if (cost > input.sendAmount) throw conflict({ newPrice: unitPrice });

  const row = await chat.insertMessage(work.tx, {
    senderId: input.userId,
    body: input.message,
    cost,
    unitPrice,
    at: input.now,
  });
  const paid = await sendChatMessage(work, { userId: input.userId, amount: cost, messageId: Number(row.id) });
  const nextPrice = chatUnitPrice(input.baseUnitPrice, recent + 1);
  await chat.countMessage(work.tx, nextPrice);

  // The live payload is presented where it is raised (docs/decisions.md, "Presenters at the edge").
  // Never to the sockets of those who blocked the sender (docs/product.md#blocks).
  const blockers = (await blockersOf(work.tx, [input.userId])).get(input.userId);
  work.emit('chat', 'textMessage', presentMessage(row), blockers ? audience.allExcept([...blockers]) : undefined);
  if (nextPrice !== room.unit_price) work.emit('chat', 'newMessagePrice', { newPrice: nextPrice });
  // Those away from the room hear of it on their devices, each at most once per CHAT_PUSH_EVERY_MS
  // (docs/decisions.md "Issue 27: which events push").
  if (input.inRoom) {
    await queueChatPush(work, {
      senderId: input.userId,
      senderName: row.username,
      text: row.body,
      inRoom: input.inRoom,
      now: input.now,
    });
  }
  return { message: row, cost, balance: paid.balances.get(account.available(input.userId))! };
}
