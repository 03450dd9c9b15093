import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { MissedMessages } from '../../../../../common/api/chat';
import { api } from '../../../lib/api';
import { useLiveChannel } from '../../../lib/live';
import { useLoggedIn } from '../../../lib/session';

/*
 * The chat's missed-message count (SPEC §3 counters, §7 `missedMessage`): what the bubble and the bottom bar's Chat
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

/** The count, kept current by `notification`/`missedMessage`; 0 for a visitor. */
export function useMissedMessages(): number {
  const loggedIn = useLoggedIn();
  const client = useQueryClient();
  const { data } = useQuery({ ...missedQuery, enabled: loggedIn });
  useLiveChannel(
    'notification',
    (e) => {
      if (e.t === 'missedMessage') client.setQueryData(missedQuery.queryKey, openRooms > 0 ? 0 : e.m.value);
    },
    loggedIn,
  );
  return loggedIn ? (data ?? 0) : 0;
}

/** Called by the room while it is on screen: the user is reading, so the count goes to 0 and stays there. */
export function useRoomIsOpen(): void {
  const client = useQueryClient();
  useEffect(() => {
    openRooms += 1;
    client.setQueryData(missedQuery.queryKey, 0);
    return () => {
      openRooms -= 1;
    };
  }, [client]);
}
