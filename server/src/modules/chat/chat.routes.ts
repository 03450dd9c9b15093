import {
  LastMessages,
  MessageSent,
  MissedMessages,
  NewPrice,
  OnlineWithoutMe,
  SendMessageBody,
  UnitPrice,
} from '../../../../common/api/chat';
import { FieldErrors, Message, Missing } from '../../../../common/api/shared';
import type { App, AppContext } from '../../context';
import { requireUser } from '../../http/auth';
import { sendPaid } from '../../http/idempotency';
import { refuseBlockedWords } from '../moderation/blocked-words.service';
import { sendMessage } from './chat.commands';
import { presentMessage } from './chat.presenter';
import { inRoomNow, lastMessages, missedMessages, onlineWithoutMe, startChatRoom, unitPrice } from './chat.service';

/** The General chat room (docs/product.md#chat). */
export async function chatRoutes(app: App, ctx: AppContext): Promise<void> {
  const tags = ['chat'];
  const stop = await startChatRoom(ctx);
  app.addHook('onClose', async () => stop());

  // A socket that (re)subscribes starts from the current price.
  ctx.live.snapshot('chat', 'newMessagePrice', async () => ({ newPrice: await unitPrice(ctx) }));

  app.get(
    '/api/last-50-messages',
    {
      config: { auth: 'public' },
      schema: {
        summary: "The chat room's last 50 messages",
        operationId: 'listChatMessages',
        tags,
        response: { 200: LastMessages },
      },
    },
    // A signed-in reader gets none of the messages of users they blocked (docs/product.md#blocks).
    async (req) => (await lastMessages(ctx, req.user?.id ?? null)).map(presentMessage),
  );

  app.get(
    '/api/chat-room/unit-price',
    {
      config: { auth: 'public' },
      schema: {
        summary: "The chat's unit price now",
        operationId: 'getChatUnitPrice',
        tags,
        response: { 200: UnitPrice },
      },
    },
    async () => ({
      unitPrice: await unitPrice(ctx),
    }),
  );

  app.get(
    '/api/chat-room/online-users-without-me',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'Who else is in the chat room',
        operationId: 'listOnlineUsers',
        tags,
        response: { 200: OnlineWithoutMe, 503: Message },
      },
    },
    async (req) => ({ value: await onlineWithoutMe(ctx, req.user?.id ?? null) }),
  );

  app.get(
    '/api/chat-room/missed-messages',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Chat messages the signed-in user has not seen',
        operationId: 'getMissedMessages',
        response: { 200: MissedMessages, 401: Message },
      },
    },
    async (req) => ({ value: await missedMessages(ctx, requireUser(req).id) }),
  );

  app.post(
    '/api/user/message',
    {
      config: { auth: 'member' },
      schema: {
        summary: 'Send a chat message (paid by its length)',
        operationId: 'sendChatMessage',
        tags,
        body: SendMessageBody,
        response: { 200: MessageSent, 400: FieldErrors, 401: Message, 402: Missing, 409: NewPrice },
      },
    },
    async (req, reply) => {
      const userId = requireUser(req).id;
      const { message, sendAmount } = req.body;
      // Before anything is charged (docs/product.md#blocks).
      await refuseBlockedWords(ctx, 'message', message);
      const inRoom = await inRoomNow(ctx);
      return sendPaid(ctx, req, reply, userId, async (work) => {
        const sent = await sendMessage(work, {
          userId,
          message,
          sendAmount,
          now: ctx.now(),
          baseUnitPrice: ctx.config.chatBaseUnitPrice,
          inRoom,
        });
        return { ...sent, message: presentMessage(sent.message) };
      });
    },
  );
}
