import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { live, useLiveChannel } from '../../../lib/live';
import { useLoggedIn } from '../../../lib/session';
import { NOTIFICATIONS } from '../api/notifications';

/**
 * The private `notification` channel: each `newNotification` refetches the count and whatever list is shown (a
 * folded notification may have changed, so nothing is patched in place), and so does `notificationsRead`, sent when
 * the user read some in another tab. After a reconnect too.
 */
export function useNotificationsLive(): void {
  const client = useQueryClient();
  const loggedIn = useLoggedIn();
  useLiveChannel(
    'notification',
    (e) => {
      if (e.t === 'newNotification' || e.t === 'notificationsRead')
        void client.invalidateQueries({ queryKey: NOTIFICATIONS });
    },
    loggedIn,
  );
  useEffect(() => live.onReconnect(() => void client.invalidateQueries({ queryKey: NOTIFICATIONS })), [client]);
}
