import { Link, useParams } from 'react-router';
import { useCachedImage } from '../lib/imageCache';
import { useProfile } from '../lib/session';
import { useUserInfo } from '../features/pictures/api/userInfo';
import { Wall } from '../features/pictures/components/Wall';

/** A user's pictures, most recently funded by their author first, under a large header (SPEC §2 "Profile"). */
export default function ProfilePage() {
  const userId = Number(useParams().userId);
  const { data: user, isError } = useUserInfo(userId);
  const { data: me } = useProfile();
  const own = me?.id === userId;
  const face = useCachedImage(user?.profileImageUrl ?? (own ? me?.profileImageUrl : null));

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
        <img
          className="avatar"
          src={face}
          width={112}
          height={112}
          alt={user ? `${user.username}'s profile picture` : ''}
        />
        <div>
          <h1 id="profile-name">{user?.username ?? 'Loading...'}</h1>
          {own && (
            <Link to="/profile/edit" className="muted">
              Set profile picture
            </Link>
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
