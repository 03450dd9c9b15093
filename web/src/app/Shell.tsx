import { lazy, Suspense, useLayoutEffect, useRef, type ReactNode } from 'react';
import { GOOD_TO_KNOW, WALL_PANEL } from '../../../common/shell';
import { Link, useLocation } from '../lib/router';
import { ChatBubble } from '../features/chat/components/ChatBubble';
import { useLootboxCountersLive } from '../features/lootboxes/lib/live';
import { SuspendedBanner } from '../features/moderation/components/SuspendedBanner';
import { useModerationLive } from '../features/moderation/lib/useModerationLive';
import { NotificationBubble } from '../features/notifications/components/NotificationBubble';
import { useNotificationsLive } from '../features/notifications/lib/live';
import { useUpdate } from '../lib/pwa';
import { useLoggedIn } from '../lib/session';
import { OfflineBanner } from './AppStatus';
import { BottomBar } from './BottomBar';
import { GlobalTooltip } from './GlobalTooltip';
import { Header } from './Header';
import { MainMenu } from './MainMenu';
import { hasExtraPanel } from './nav';
import { PopupHost } from './popups/PopupHost';
import { useNavigationRules, useSessionRules } from './useShellEffects';
import './Shell.css';

/** "Reload to update": a chunk of its own, loaded only once a new build waits (web/src/lib/pwa.ts). */
const UpdateToast = lazy(() => import('./UpdateToast'));

/** The frame around every page (its children): header, side and right panels on desktop, the bottom bar below 1230 px. */
export function Shell({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  useNavigationRules();
  useSessionRules();
  useNotificationsLive();
  useLootboxCountersLive();
  useModerationLive();
  const loggedIn = useLoggedIn();
  const updateReady = useUpdate() !== null;
  // The painted page's shell (docs/decisions.md "Issue 28: the wall painted by the server") said it was not usable
  // yet; hydrated, it is. React leaves attributes it did not render in place, so this takes it away.
  const frame = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => frame.current?.removeAttribute('aria-disabled'), []);
  return (
    <div className="shell" ref={frame}>
      <Header />
      <div className="shell__body">
        <aside className="side-panel" aria-label="Side panel">
          <MainMenu />
        </aside>
        <main className="shell__main" id="main">
          <OfflineBanner />
          <SuspendedBanner />
          <Suspense fallback={<p className="loading">Loading...</p>}>{children}</Suspense>
        </main>
        <aside className="right-panel" aria-label="Right panel">
          {hasExtraPanel(pathname) && (
            <section className="panel extra-panel" aria-label="About the wall" data-testid="extra-panel">
              <h2>{WALL_PANEL.title}</h2>
              {WALL_PANEL.lines.map((line) => (
                <p key={line}>{line}</p>
              ))}
            </section>
          )}
          <section className="panel" aria-label="Good to know">
            <h2>{GOOD_TO_KNOW.title}</h2>
            <p>{GOOD_TO_KNOW.line}</p>
            <p>
              {GOOD_TO_KNOW.logBefore}
              <Link to="/moderation-log">{GOOD_TO_KNOW.logLink}</Link>.
            </p>
          </section>
        </aside>
      </div>
      <BottomBar />
      {/* The floating bubbles share one dock in the corner, so they never lie on each other or on an open panel. */}
      <div className="floating-dock">
        {/* The notifications' own pages have no bubble. */}
        {loggedIn && pathname !== '/notifications' && pathname !== '/mobile-notifications' && <NotificationBubble />}
        {/* The room's own page has no bubble. */}
        {pathname !== '/chat' && <ChatBubble />}
      </div>
      {updateReady && (
        <Suspense fallback={null}>
          <UpdateToast />
        </Suspense>
      )}
      <PopupHost />
      <GlobalTooltip />
    </div>
  );
}
