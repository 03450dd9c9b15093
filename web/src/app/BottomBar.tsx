import { useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import {
  BAR_AFTER_MENU as AFTER_MENU,
  BAR_ENLARGE_AT,
  BAR_FIRST_ROW as FIRST_ROW,
  BAR_MAX,
  BAR_MIN,
  BAR_SECOND_ROW as SECOND_ROW,
  type BarItem,
} from '../../../common/shell';
import { NavLink } from '../lib/router';
import { openPopup } from '../lib/popups';
import { useLoggedIn } from '../lib/session';
import { Icon } from './icons';
import { Balance } from './UserArea';
import { NotificationCount } from '../features/notifications/components/NotificationCount';
import { MissedCount } from '../features/chat/components/MissedCount';

const clamp = (h: number) => Math.min(BAR_MAX, Math.max(BAR_MIN, Math.round(h)));

/** The phone and tablet navigation at the bottom of the screen. */
export function BottomBar() {
  const loggedIn = useLoggedIn();
  const [height, setHeight] = useState(() => clamp(Number(localStorage.getItem('bottomBarHeight')) || BAR_MIN));
  const drag = useRef<{ y: number; h: number } | null>(null);
  const expanded = height > BAR_ENLARGE_AT;
  // The page's bottom padding and the chat room's height follow the bar as it is dragged (Shell.css, chat.css).
  useLayoutEffect(() => {
    document.documentElement.style.setProperty('--bar-h', `${height}px`);
  }, [height]);

  const resize = (h: number) => {
    const next = clamp(h);
    setHeight(next);
    localStorage.setItem('bottomBarHeight', String(next));
  };

  const item = (it: BarItem) => (
    <NavLink
      key={it.label}
      to={it.to}
      end={it.to === '/'}
      aria-label={it.name ?? it.label}
      data-tip={it.name ?? it.label}
      className={({ isActive }) => (isActive ? 'bar-item bar-item--active' : 'bar-item')}
      onClick={(e) => {
        if (it.needsLogin && !loggedIn) {
          e.preventDefault();
          openPopup({ kind: 'signIn' });
        }
      }}
    >
      <Icon name={it.icon} />
      {it.icon === 'bell' && loggedIn && <NotificationCount />}
      {it.icon === 'chat' && loggedIn && <MissedCount />}
      <span className="bar-item__label">{it.label}</span>
    </NavLink>
  );

  return (
    <nav className="bottom-bar" aria-label="Main" style={{ height }} data-testid="bottom-bar" data-expanded={expanded}>
      <div
        className="bottom-bar__handle"
        role="slider"
        tabIndex={0}
        aria-label="Menu bar height"
        aria-valuemin={BAR_MIN}
        aria-valuemax={BAR_MAX}
        aria-valuenow={height}
        data-testid="bottom-bar-handle"
        onPointerDown={(e: PointerEvent<HTMLDivElement>) => {
          e.currentTarget.setPointerCapture(e.pointerId);
          drag.current = { y: e.clientY, h: height };
        }}
        onPointerMove={(e) => {
          if (drag.current) resize(drag.current.h + (drag.current.y - e.clientY));
        }}
        onPointerUp={() => (drag.current = null)}
        onPointerCancel={() => (drag.current = null)}
        onKeyDown={(e: KeyboardEvent) => {
          if (e.key === 'ArrowUp') resize(height + 8);
          else if (e.key === 'ArrowDown') resize(height - 8);
          else return;
          e.preventDefault();
        }}
      />
      <div className="bottom-bar__row">
        {item(FIRST_ROW[0]!)}
        {!loggedIn && (
          <button
            type="button"
            className="bar-item"
            aria-label="Login"
            data-tip="Login"
            onClick={() => openPopup({ kind: 'signIn' })}
          >
            <Icon name="login" />
            <span className="bar-item__label">Login</span>
          </button>
        )}
        {FIRST_ROW.slice(1).map(item)}
        <button
          type="button"
          className="bar-item"
          aria-label={expanded ? 'Less menu' : 'More menu'}
          aria-expanded={expanded}
          data-tip="Menu"
          onClick={() => resize(expanded ? BAR_MIN : BAR_MAX)}
        >
          <Icon name="menu" />
          <span className="bar-item__label">Menu</span>
        </button>
        {AFTER_MENU.map(item)}
        {loggedIn && <Balance compact />}
      </div>
      {expanded && <div className="bottom-bar__row bottom-bar__row--second">{SECOND_ROW.map(item)}</div>}
    </nav>
  );
}
