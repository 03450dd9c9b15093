import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ChatMessage } from '../../../../../common/api/chat';
import { live, useLiveChannel } from '../../../lib/live';
import { useLoggedIn } from '../../../lib/session';
import { isBlocked, useBlocked } from '../../blocks/api/blocked-ids';

/** Messages kept on screen: the 50 fetched plus what arrived since, trimmed to this many. */
export const KEPT_MESSAGES = 200;

const MESSAGES = ['chat', 'messages'] as const;
const UNIT_PRICE = ['chat', 'unitPrice'] as const;
const OTHERS_ONLINE = ['chat', 'othersOnline'] as const;

/** Appends a message once (the sender gets it both in the answer and live), keeping the list in id order. */
export function withMessage(list: readonly ChatMessage[], message: ChatMessage): ChatMessage[] {
  if (list.some((m) => m.id === message.id)) return [...list];
  const next = [...list, message].sort((a, b) => a.id - b.id);
  return next.slice(-KEPT_MESSAGES);
}

export function addMessage(client: QueryClient, message: ChatMessage): void {
  client.setQueryData<ChatMessage[]>(MESSAGES, (old) => (old ? withMessage(old, message) : old));
}

export const setUnitPrice = (client: QueryClient, price: number) => client.setQueryData(UNIT_PRICE, price);

/**
 * The chat channel into the caches the REST calls filled: messages, the unit price, and the online count (the
 * server counts every signed-in user with the room open; the reader, when signed in, is one of them). After a
 * reconnect everything is fetched again, as events may have been missed.
 */
export function useChatLive(): void {
  const client = useQueryClient();
  const loggedIn = useLoggedIn();
  // The blocked users, known before a live message from one arrives (docs/product.md#blocks).
  useBlocked();
  useLiveChannel('chat', (e) => {
    // A blocked sender's message is never shown (docs/product.md#blocks), even one the server sent before it knew.
    if (e.t === 'textMessage') {
      if (!isBlocked(client, e.m.senderId)) addMessage(client, e.m);
    } else if (e.t === 'newMessagePrice') setUnitPrice(client, e.m.newPrice);
    else if (e.t === 'onlineUserCount')
      client.setQueryData(OTHERS_ONLINE, loggedIn ? Math.max(0, e.m.count - 1) : e.m.count);
  });
  useEffect(() => live.onReconnect(() => void client.invalidateQueries({ queryKey: ['chat'] })), [client]);
}
