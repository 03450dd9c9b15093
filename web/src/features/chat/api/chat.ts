import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ChatMessage,
  MessageSent,
  OnlineWithoutMe,
  SendMessageBody,
  UnitPrice,
} from '../../../../../common/api/chat';
import { useAction } from '../../../hooks/useAction';
import { api } from '../../../lib/api';
import { useSetProfileField } from '../../users/api/profile';
import { addMessage } from '../lib/cache';

/** The room's newest 50 messages, oldest first; live messages are appended to the same cache (lib/cache.ts). */
export const messagesQuery = queryOptions({
  queryKey: ['chat', 'messages'] as const,
  queryFn: () => api<ChatMessage[]>('/api/last-50-messages'),
  staleTime: Infinity,
});
export const useChatMessages = () => useQuery(messagesQuery);

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

export type SendInput = Omit<SendMessageBody, 'balance'> & { balance?: number; actionKey: string };

/** POST /api/user/message with one key per user action: 409 (the price rose) and 402 are the caller's to handle. */
export const sendMessage = ({ actionKey, ...body }: SendInput): Promise<MessageSent> =>
  api<MessageSent>('/api/user/message', { body, idempotencyKey: actionKey });

/** Sends, then shows the message and the new balance at once (the live echo is the same message, not added twice). */
export function useSendMessage() {
  const client = useQueryClient();
  const setProfileField = useSetProfileField();
  return useAction(async (input: SendInput) => {
    const sent = await sendMessage(input);
    addMessage(client, sent.message);
    setProfileField('balance', sent.balance);
    return sent;
  });
}
