import { Link, NavLink, useLocation } from '../lib/router';
import { brandOf } from '../../../common/brand';
import { NotificationBell } from '../features/notifications/components/NotificationBell';
import { useLoggedIn } from '../lib/session';
import { tenant } from '../lib/tenant';
import { showTooltip } from './GlobalTooltip';
import { helpFor } from '../../../common/help';
import { UserArea } from './UserArea';

export function Header() {
  const { pathname } = useLocation();
  const help = helpFor(pathname);
  const loggedIn = useLoggedIn();
  return (
    <header className="header">
      <Link to="/" className="brand" aria-label={`${brandOf(tenant).title}, home`}>
        <img src="/favicon.svg" width={28} height={28} alt="" />
        <span className="brand__name">{brandOf(tenant).title}</span>
      </Link>
      <nav className="wall-toggle" aria-label="Wall">
        <NavLink
          to="/"
          end
          className={({ isActive }) => (isActive ? 'wall-toggle__link wall-toggle__link--active' : 'wall-toggle__link')}
        >
          TOP
        </NavLink>
        <NavLink
          to="/trending"
          className={({ isActive }) => (isActive ? 'wall-toggle__link wall-toggle__link--active' : 'wall-toggle__link')}
        >
          TRENDING
        </NavLink>
      </nav>
      <div className="header__end">
        <button
          type="button"
          className="help-button"
          aria-label={`Help: ${help}`}
          data-tip={help}
          onClick={(e) => showTooltip(e.currentTarget, help)}
        >
          ?
        </button>
        {loggedIn && <NotificationBell />}
        <UserArea />
      </div>
    </header>
  );
}
