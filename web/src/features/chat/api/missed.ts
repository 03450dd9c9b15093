import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import type { MissedMessages } from '../../../../../common/api/chat';
import { api } from '../../../lib/api';
import { useLiveChannel } from '../../../lib/live';
import { useLoggedIn } from '../../../lib/session';

/*
 * The chat's missed-message count (docs/product.md#chat: `missedMessage`): what the bubble and the bottom bar's Chat
 * entry show. The server counts messages sent since the user's last chat socket closed; opening the room clears it.
 * A file of its own: the shell's first load carries the count, not the room.
 */

export const missedQuery = queryOptions({
  queryKey: ['chat', 'missed'] as const,
  queryFn: async () => (await api<MissedMessages>('/api/chat-room/missed-messages')).value,
  staleTime: Infinity,
});

/** Rooms open on this page (the /chat page, the bubble's panel): while one is, nothing is missed. */
let openRooms = 0;
const listeners = new Set<() => void>();
const setOpenRooms = (n: number) => {
  openRooms = n;
  listeners.forEach((l) => l());
};
const roomOpen = () => openRooms > 0;
// The third reader serves the hydration of a painted page (docs/decisions.md "Issue 28: the wall painted by the server").
const useRoomOpen = () =>
  useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    roomOpen,
    roomOpen,
  );

/** The count, kept current by `notification`/`missedMessage`; 0 for a visitor and while a room is on screen. */
export function useMissedMessages(): number {
  const loggedIn = useLoggedIn();
  const client = useQueryClient();
  const roomOpen = useRoomOpen();
  const { data } = useQuery({ ...missedQuery, enabled: loggedIn });
  useLiveChannel(
    'notification',
    (e) => {
      if (e.t === 'missedMessage') client.setQueryData(missedQuery.queryKey, openRooms > 0 ? 0 : e.m.value);
    },
    loggedIn,
  );
  return loggedIn && !roomOpen ? (data ?? 0) : 0;
}

/**
 * Called by the room while it is on screen: the user is reading, so the count is 0 then, and still 0 when the room
 * closes (what was missed has been read; the server counts from the moment its last chat socket closed).
 */
export function useRoomIsOpen(): void {
  const client = useQueryClient();
  useEffect(() => {
    setOpenRooms(openRooms + 1);
    client.setQueryData(missedQuery.queryKey, 0);
    return () => {
      setOpenRooms(openRooms - 1);
      client.setQueryData(missedQuery.queryKey, 0);
    };
  }, [client]);
}
