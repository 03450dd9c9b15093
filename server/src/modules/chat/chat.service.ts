import type { ChatMessage } from '../../../../common/api/chat';
import { CHAT_PRICE_WINDOW_MS, chatUnitPrice } from '../../../../common/chat';
import type { AppContext } from '../../context';
import type { Executor } from '../../db/connection';
import { redisTarget } from '../../db/redis-connection';
import { audience, type Work } from '../../db/unit-of-work';
import { openPresence, type ChatPresence } from './chat.presence';
import * as chat from './chat.repository';

/** How many messages the room shows (docs/product.md#chat). */
export const LAST_MESSAGES = 50;
/** Joins and leaves within this long are counted once: a crowd arriving is a few broadcasts, not one per user. */
const ONLINE_COUNT_DELAY_MS = 200;

/** This instance's side of the room: who has it open here, and the registry of who has it open anywhere. */
interface RoomHere {
  presence: ChatPresence;
}
const rooms = new WeakMap<AppContext, RoomHere>();

function roomOf(ctx: AppContext): RoomHere {
  const here = rooms.get(ctx);
  if (!here) throw new Error('the chat room was not started (chatRoutes)');
  return here;
}

/**
 * Starts the room on this instance: the presence registry fed by the hub's joins and leaves on `chat`, the online
 * count broadcast when it changes, and `missedMessage` for this instance's signed-in sockets without the room open.
 * The answer stops it.
 */
export async function startChatRoom(ctx: AppContext): Promise<() => Promise<void>> {
  await chat.ensureRoom(ctx.db);
  const presence = await openPresence({
    redis: redisTarget(ctx.config),
    prefix: `${ctx.config.redisChannel}:chat:`,
    onError: (err) => ctx.log.error({ err }, 'redis (chat presence)'),
  });
  rooms.set(ctx, { presence });
  let closed = false;

  let pending: NodeJS.Timeout | undefined;
  const countSoon = () => {
    if (pending || closed) return;
    pending = setTimeout(() => {
      pending = undefined;
      broadcastOnlineCount(ctx).catch((err) => ctx.log.error({ err }, 'chat online count'));
    }, ONLINE_COUNT_DELAY_MS);
  };
  const failed = (err: unknown) => ctx.log.error({ err }, 'chat presence');
  ctx.live.watch('chat', {
    join: (userId) => void presence.join(userId).then(countSoon, failed),
    leave: (userId) => {
      if (closed) return;
      void presence.leave(userId).then(countSoon, failed);
      chat.recordSeen(ctx.db, userId, ctx.now()).catch(failed);
    },
  });

  const stopListening = ctx.bus.subscribe((event) => {
    if (event.ch === 'chat' && event.t === 'textMessage' && !closed) {
      notifyMissed(ctx, event.m).catch((err) => ctx.log.error({ err }, 'chat missedMessage'));
    }
  });

  return async () => {
    closed = true;
    clearTimeout(pending);
    stopListening();
    await presence.close();
  };
}

/**
 * docs/product.md#chat: every signed-in user with no socket on `chat` hears how many messages they missed.
 * Each instance tells its own sockets (only it knows who follows `notification` here: a `thisInstance` audience),
 * reading the counts in one query; a user with the room open on another instance is left out through the shared
 * registry, read before the transaction.
 */
async function notifyMissed(ctx: AppContext, message: ChatMessage): Promise<void> {
  const listening = [...ctx.live.usersOn('notification')].filter((id) => id !== message.senderId);
  if (listening.length === 0) return;
  const online = await roomOf(ctx).presence.online();
  const away = listening.filter((id) => !online.has(id));
  if (away.length === 0) return;
  await ctx.transact(async (work) => {
    for (const [userId, value] of await chat.missedCounts(work.tx, away)) {
      work.emit('notification', 'missedMessage', { value }, audience.thisInstance(audience.user(userId)));
    }
  });
}

/**
 * Signed-in users with the room open anywhere, broadcast if it differs from the last count broadcast. The shared
 * registry is read before the transaction, which waits on nothing but the database.
 */
async function broadcastOnlineCount(ctx: AppContext): Promise<void> {
  const count = (await roomOf(ctx).presence.online()).size;
  await ctx.transact(async (work) => {
    if (await chat.replaceIfChanged(work.tx, 'online_count', count)) work.emit('chat', 'onlineUserCount', { count });
  });
}

/** The current unit price: the base, raised by the last minute's messages. */
export async function unitPrice(ctx: AppContext, exec: Executor = ctx.db): Promise<number> {
  const recent = await chat.countSince(exec, new Date(ctx.now().getTime() - CHAT_PRICE_WINDOW_MS));
  return chatUnitPrice(ctx.config.chatBaseUnitPrice, recent);
}

/** GET /api/last-50-messages: for a signed-in reader, none of the users they blocked (docs/product.md#blocks). */
export function lastMessages(ctx: AppContext, viewerId: number | null = null): Promise<chat.MessageRow[]> {
  return chat.lastMessages(ctx.db, LAST_MESSAGES, viewerId);
}

/**
 * GET /api/chat-room/missed-messages: what the bubble counts on a fresh page, before any `missedMessage` arrives.
 * Nothing is missed while the room is open somewhere (the count is taken when its last socket closes); with the
 * shared registry away, the count is read as if it were closed rather than failing the page.
 */
export async function missedMessages(ctx: AppContext, userId: number): Promise<number> {
  const online = await roomOf(ctx)
    .presence.online()
    .catch(() => new Set<number>());
  if (online.has(userId)) return 0;
  return Math.max(0, (await chat.missedCounts(ctx.db, [userId])).get(userId) ?? 0);
}

/**
 * Who has the room open anywhere, for a message's CHAT pushes (docs/product.md#push), read before the send's
 * transaction (with Redis away, the registry answers this instance's users); undefined if it throws, and then no
 * CHAT push goes rather than one to users in the room.
 */
export function inRoomNow(ctx: AppContext): Promise<Set<number> | undefined> {
  return roomOf(ctx)
    .presence.online()
    .catch((err: unknown) => {
      ctx.log.warn({ err }, 'chat presence unknown: no CHAT push for this message');
      return undefined;
    });
}

/** GET /api/chat-room/online-users-without-me. */
export async function onlineWithoutMe(ctx: AppContext, userId: number | null): Promise<number> {
  const online = await roomOf(ctx).presence.online();
  return online.size - (userId !== null && online.has(userId) ? 1 : 0);
}

/**
 * The room job's work (jobs/chat-room.job.ts), one instance at a time: a price that fell by time alone is raised
 * under the room's lock, and handed to the bus right at the commit, before a send that waited for the lock can commit
 * and hand over its own (docs/decisions.md, issue 23 item 3). The answer is the step for after the commit: an online
 * count that changed without a join or leave here (an instance died) is broadcast. Nothing here waits on Redis while
 * the transaction is open (docs/decisions.md, issue 22 item 27): the presence registry is read after the commit, and
 * the unit of work never waits for the bus.
 */
export async function refreshChatRoom(ctx: AppContext, work: Work): Promise<() => Promise<void>> {
  await chat.lockRoom(work.tx);
  const price = await unitPrice(ctx, work.tx);
  if (await chat.replaceIfChanged(work.tx, 'unit_price', price))
    work.emit('chat', 'newMessagePrice', { newPrice: price });
  return async () => {
    if (rooms.has(ctx)) await broadcastOnlineCount(ctx);
  };
}

/** A chat message for a moderator's decision (docs/product.md#moderation), removed or not. */
export function chatMessageForModeration(exec: Executor, messageId: number) {
  return chat.messageForModeration(exec, messageId);
}

/** A moderator removes (`at`) or restores (null) a chat message (docs/product.md#moderation); whether it changed. */
export function setChatMessageRemoved(exec: Executor, messageId: number, at: Date | null): Promise<boolean> {
  return chat.setRemoved(exec, messageId, at);
}
