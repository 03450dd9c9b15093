import { Link, useParams } from '../lib/router';
import { useBlocked } from '../features/blocks/api/blocked-ids';
import { useUnblock } from '../features/blocks/api/blocks';
import { Wall } from '../features/pictures/components/Wall';
import { useProfile } from '../features/users/api/profile';
import { useUserInfo } from '../features/users/api/user-info';
import { Avatar } from '../features/users/components/Avatar';
import { openPopup } from '../lib/popups';
import { useLoggedIn } from '../lib/session';

/** A user's pictures, most recently funded by their author first, under a large header (docs/product.md#wall). */
export default function ProfilePage() {
  const userId = Number(useParams().userId);
  const { data: user, isError } = useUserInfo(userId);
  const { data: me } = useProfile();
  const own = me?.id === userId;
  const loggedIn = useLoggedIn();
  const { data: blockedUsers } = useBlocked();
  const blocked = blockedUsers?.some((b) => b.userId === userId) ?? false;
  const unblock = useUnblock();
  // A Google account has no name until its nickname is chosen: never show it as "null" or as still loading.
  const title = user ? (user.username ?? 'No nickname yet') : 'Loading...';

  if (isError || !(Number.isSafeInteger(userId) && userId > 0)) {
    return (
      <section className="page">
        <h1>User not found</h1>
        <Link to="/">Back to the wall</Link>
      </section>
    );
  }
  return (
    <section aria-labelledby="profile-name">
      <header className="profile-header">
        <Avatar
          url={user?.profileImageUrl ?? (own ? me?.profileImageUrl : null)}
          size={112}
          alt={user?.username ? `${user.username}'s profile picture` : ''}
        />
        <div>
          <h1 id="profile-name">{title}</h1>
          {own && (
            <Link to="/profile/edit" className="muted">
              Set profile picture
            </Link>
          )}
          {loggedIn && me && !own && blocked && (
            <button
              type="button"
              className="button"
              disabled={unblock.isPending}
              onClick={() => void unblock.run(userId).catch(() => undefined)}
            >
              Unblock
            </button>
          )}
          {loggedIn && me && !own && !blocked && user?.username && (
            <button
              type="button"
              className="button"
              onClick={() => openPopup({ kind: 'blockUser', userId, username: user.username ?? '' })}
            >
              Block
            </button>
          )}
        </div>
      </header>
      <Wall
        key={userId}
        wallKey={{ sort: 'profile', authorId: userId }}
        start={0}
        browsing="profile"
        empty={
          <div className="page">
            <p>No pictures to see.</p>
            {own && <Link to="/upload">Upload some.</Link>}
          </div>
        }
      />
    </section>
  );
}
