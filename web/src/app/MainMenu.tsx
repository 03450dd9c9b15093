import { NavLink } from '../lib/router';
import { useProfile } from '../features/users/api/profile';
import { openPopup } from '../lib/popups';
import { useLoggedIn } from '../lib/session';
import { Icon } from './icons';
import { MENU } from './nav';

/** The desktop side-panel menu. */
export function MainMenu() {
  const loggedIn = useLoggedIn();
  const { data: profile } = useProfile();
  return (
    <nav className="main-menu" aria-label="Main">
      {MENU.map((item) => {
        const to = item.to === '/profile' ? (profile ? `/profile/${profile.id}` : '/mobile-profile') : item.to;
        return (
          <NavLink
            key={item.label}
            to={to}
            end={item.to === '/'}
            className={({ isActive }) => (isActive ? 'main-menu__item main-menu__item--active' : 'main-menu__item')}
            onClick={(e) => {
              if (item.needsLogin && !loggedIn) {
                e.preventDefault();
                openPopup({ kind: 'signIn' });
              }
            }}
          >
            <Icon name={item.icon} />
            <span>{item.label}</span>
          </NavLink>
        );
      })}
    </nav>
  );
}
