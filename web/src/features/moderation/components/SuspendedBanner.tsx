import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Profile } from '../../../../../common/api/users';
import { formatDateTime } from '../../../../../common/time';
import { useNow } from '../../../components/ui/RelativeTime';
import { Link } from '../../../lib/router';
import { useLoggedIn } from '../../../lib/session';
import { useSuspensionNotice } from '../../../lib/suspension';
import { profileQuery, useProfile } from '../../users/api/profile';
import './SuspendedBanner.css';

/** The profile's suspension fields (docs/product.md#moderation); absent from a server that does not send them. */
type Suspendable = Profile & { suspended?: boolean; suspendedUntil?: string | null };

/** The banner's words: until when, or for good. */
export function suspendedText(until: string | null): string {
  return until
    ? `Your account is suspended until ${formatDateTime(until)}. You can read, but not post, pay or trade.`
    : 'Your account is suspended for good. You can read, but not post, pay or trade.';
}

/**
 * Shown to a suspended signed-in user on every page: from the profile's `suspended` and `suspendedUntil`, or from a
 * refused call's 403 (lib/suspension.ts) when the profile has not said it yet. A suspension that has ended is not shown.
 */
export function SuspendedBanner() {
  const loggedIn = useLoggedIn();
  const { data, dataUpdatedAt } = useProfile();
  const notice = useSuspensionNotice();
  const client = useQueryClient();
  const profile = data as Suspendable | undefined;
  // Refreshed every few seconds: the banner goes when the suspension ends by itself.
  const now = useNow();
  // A refusal told of a suspension: the profile is read again, so it says until when (or that it was lifted).
  useEffect(() => {
    if (notice) void client.invalidateQueries({ queryKey: profileQuery.queryKey });
  }, [notice, client]);
  if (!loggedIn) return null;
  // The profile says it when it has the fields and was read after the last refusal; else the refusal does.
  const profileKnows = profile?.suspended !== undefined && (!notice || dataUpdatedAt > notice.at);
  let until: string | null;
  if (profileKnows) {
    if (!profile?.suspended) return null;
    until = profile.suspendedUntil ?? null;
  } else if (notice) until = notice.suspendedUntil;
  else return null;
  if (until && new Date(until).getTime() <= now) return null;
  return (
    <div className="suspended-banner" role="alert" data-testid="suspended-banner">
      <p>{suspendedText(until)}</p>
      <Link to="/moderation">Moderation decisions</Link>
    </div>
  );
}
