import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type {
  ChatMessage,
  MessageSent,
  OnlineWithoutMe,
  SendMessageBody,
  UnitPrice,
} from '../../../../../common/api/chat';
import { api } from '../../../lib/api';
import { usePaidAction } from '../../wallet/api/usePaidAction';
import { addMessage, setUnitPrice } from '../lib/cache';

/** The room's newest 50 messages, oldest first; live messages are appended to the same cache (lib/cache.ts). */
export const messagesQuery = queryOptions({
  queryKey: ['chat', 'messages'] as const,
  queryFn: () => api<ChatMessage[]>('/api/last-50-messages'),
  staleTime: Infinity,
});
export const useChatMessages = () => useQuery(messagesQuery);

/** Drops the shown messages `keep` refuses (a removed message, a blocked sender's: docs/product.md#moderation). */
export function filterMessages(client: QueryClient, keep: (m: ChatMessage) => boolean): void {
  client.setQueryData<ChatMessage[]>(messagesQuery.queryKey, (old) => old?.filter(keep));
}

/** The current unit price in cents; `newMessagePrice` keeps it current. */
export const unitPriceQuery = queryOptions({
  queryKey: ['chat', 'unitPrice'] as const,
  queryFn: async () => (await api<UnitPrice>('/api/chat-room/unit-price')).unitPrice,
  staleTime: Infinity,
});
export const useUnitPrice = () => useQuery(unitPriceQuery);

/** The other signed-in users with the room open; `onlineUserCount` keeps it current. */
export const othersOnlineQuery = queryOptions({
  queryKey: ['chat', 'othersOnline'] as const,
  queryFn: async () => (await api<OnlineWithoutMe>('/api/chat-room/online-users-without-me')).value,
  staleTime: Infinity,
});
export const useOthersOnline = () => useQuery(othersOnlineQuery);

export type SendInput = Omit<SendMessageBody, 'balance'> & { balance?: number };

/** POST /api/user/message under the attempt's key: 409 when the price rose (nothing is charged), 402 when short. */
export const sendMessage = (body: SendInput, idempotencyKey: string): Promise<MessageSent> =>
  api<MessageSent>('/api/user/message', { body, idempotencyKey });

/**
 * Sends (a paid action, features/wallet/), then shows the message at once (the live echo is the same message, not
 * added twice). A risen price (409) is shown on the send arrow; sending again at it is the user's consent.
 */
export function useSendMessage() {
  const client = useQueryClient();
  return usePaidAction(sendMessage, {
    onPaid: (sent) => addMessage(client, sent.message),
    onPriceChanged: (body) => {
      const newPrice = (body as { newPrice?: unknown } | undefined)?.newPrice;
      if (typeof newPrice === 'number') setUnitPrice(client, newPrice);
    },
  });
}
