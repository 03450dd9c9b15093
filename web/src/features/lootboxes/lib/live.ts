import { useProfile, useSetProfileField } from '../../users/api/profile';
import { useLiveChannel } from '../../../lib/live';
import { useLoggedIn } from '../../../lib/session';

/**
 * The lootboxes' own private channels, `keyCount` and `lootBoxCount`: the counts a purchase, a free box or an opening
 * (in any tab) changed, kept in the profile the header and the key shop read. The shell mounts it for a signed-in user.
 */
export function useLootboxCountersLive(): void {
  const loggedIn = useLoggedIn();
  const { data: profile } = useProfile();
  const setField = useSetProfileField();
  const signedIn = loggedIn && profile !== undefined;
  useLiveChannel('keyCount', (m) => setField('keyCount', m.m.value), signedIn);
  useLiveChannel('lootBoxCount', (m) => setField('lootBoxCount', m.m.value), signedIn);
}
