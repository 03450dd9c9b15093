import { Type, type Static } from 'typebox';
import { Nullable, paidAnswer } from './shared';

/* The paid chat's calls (docs/product.md#chat). */

/** One chat message as it leaves the server (docs/product.md#chat). */
export const ChatMessage = Type.Object({
  id: Type.Integer(),
  senderId: Type.Integer(),
  username: Type.String(),
  profilePicture: Nullable(Type.String({ description: 'Image URL of the sender’s profile picture' })),
  message: Type.String(),
  time: Type.String({ description: 'ISO 8601' }),
});
export type ChatMessage = Static<typeof ChatMessage>;

/** GET /api/last-50-messages: the room's newest 50, oldest first. */
export const LastMessages = Type.Array(ChatMessage);
export type LastMessages = Static<typeof LastMessages>;

/** GET /api/chat-room/unit-price. */
export const UnitPrice = Type.Object({ unitPrice: Type.Integer({ description: 'Cents' }) });
export type UnitPrice = Static<typeof UnitPrice>;

/** GET /api/chat-room/online-users-without-me: other signed-in users with the room open, on any instance. */
export const OnlineWithoutMe = Type.Object({ value: Type.Integer() });
export type OnlineWithoutMe = Static<typeof OnlineWithoutMe>;

/**
 * GET /api/chat-room/missed-messages: messages the signed-in user has not seen, those sent since their last chat
 * socket closed (all of them if they never had the room open), 0 while they have it open. The live
 * `notification`/`missedMessage` carries the same count as it grows (docs/product.md#chat).
 */
export const MissedMessages = Type.Object({ value: Type.Integer({ minimum: 0 }) });
export type MissedMessages = Static<typeof MissedMessages>;

/**
 * POST /api/user/message. `sendAmount` is the cost the user saw; the server charges the current cost only if it is
 * not above it. Length and the writing rules are checked by the server (400 on `message`), not by the schema, so
 * the hint is the text of docs/product.md#writing.
 */
export const SendMessageBody = Type.Object({
  message: Type.String({ maxLength: 4000 }),
  sendAmount: Type.Integer({ minimum: 0, maximum: 1_000_000_000 }),
  /** The client's view of its balance, never trusted (docs/product.md#money). */
  balance: Type.Optional(Type.Unknown()),
});
export type SendMessageBody = Static<typeof SendMessageBody>;

/** 200: the message as sent, what it cost and the balance after. */
export const MessageSent = paidAnswer(Type.Object({ message: ChatMessage, cost: Type.Integer() }));
export type MessageSent = Static<typeof MessageSent>;

/** 409: the price rose above what the user saw; nothing was charged. */
export const NewPrice = Type.Object({ newPrice: Type.Integer({ description: 'The current unit price, cents' }) });
export type NewPrice = Static<typeof NewPrice>;
