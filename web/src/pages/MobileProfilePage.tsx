import { Link } from '../lib/router';
import { logout } from '../features/auth/api/logout';
import { useProfile } from '../features/users/api/profile';
import { install, useInstallOffer } from '../lib/pwa';

/** The phone's account menu: one tile per destination (docs/product.md#shell). */
export default function MobileProfilePage() {
  const { data: profile } = useProfile();
  const installable = useInstallOffer() !== null;
  return (
    <section className="page">
      <h1>Profile</h1>
      <div className="tiles">
        <Link className="tile" to="/profile/edit">
          Set Profile Picture
        </Link>
        <Link className="tile" to="/transactions">
          Transactions
        </Link>
        <Link className="tile" to="/goodwill">
          Swag
        </Link>
        <Link className="tile" to="/notifications">
          Notifications
        </Link>
        <Link className="tile" to="/moderation">
          Moderation decisions
        </Link>
        <Link className="tile" to="/blocked">
          Blocked users
        </Link>
        <Link className="tile" to="/moderation-log">
          Moderation log
        </Link>
        {/* Only where the browser offers to install the app (docs/product.md#push). */}
        {installable && (
          <button type="button" className="tile" onClick={install}>
            Install
          </button>
        )}
        <button type="button" className="tile" onClick={() => void logout()}>
          Logout
        </button>
        {profile && (
          <Link className="tile" to={`/profile/${profile.id}`}>
            My Profile
          </Link>
        )}
      </div>
    </section>
  );
}
