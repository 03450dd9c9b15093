import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation, useMatchedRoute, useNavigate } from '../lib/router';
import { pageTitle } from '../../../common/brand';
import { endSession } from '../features/auth/api/logout';
import { useProfile } from '../features/users/api/profile';
import { useLiveBalance } from '../features/wallet/api/balance';
import { ApiError } from '../lib/api';
import { live } from '../lib/live';
import { closePopupOnNavigation, openPopup } from '../lib/popups';
import { setLoggedIn, useLoggedIn } from '../lib/session';
import { tenant } from '../lib/tenant';
import { isPublicPath } from './nav';
import { NOT_FOUND, routes } from './routes';

/**
 * Page title, popups closing on navigation, and the logged-out redirect. A path that is no page says so to everyone:
 * a visitor following a broken link reads 'Page not found' rather than a sign-in popup.
 */
export function useNavigationRules(): void {
  const { pathname, search } = useLocation();
  const notFound = useMatchedRoute(routes)?.path === NOT_FOUND;
  const navigate = useNavigate();
  const loggedIn = useLoggedIn();

  useEffect(() => {
    document.title = pageTitle(tenant, pathname);
    closePopupOnNavigation(pathname);
  }, [pathname]);

  useEffect(() => {
    if (loggedIn || notFound || isPublicPath(pathname)) return;
    // An image shared to the app waits on the upload page while a visitor signs in there (docs/product.md#push):
    // the sign-in reloads that page, signed in, and the image is still kept (web/src/lib/shared-image.ts).
    const stay = pathname === '/upload' && search.includes('shared=1');
    if (!stay) navigate('/', { replace: true });
    openPopup({ kind: 'signIn' }, { path: stay ? pathname : '/' });
  }, [loggedIn, notFound, pathname, search, navigate]);
}

/**
 * The signed-in user's session: a broken one is ended, a first login is welcomed, the balance stays live (each
 * feature follows its own channels: the key and box counts in features/lootboxes).
 */
export function useSessionRules(): void {
  const loggedIn = useLoggedIn();
  const { data: profile, error } = useProfile();
  const queryClient = useQueryClient();

  useEffect(() => {
    // A network failure (offline) says nothing about the session: only the server's answer does.
    if (!error || !loggedIn || !(error instanceof ApiError)) return;
    // The flag says signed in but the server disagrees: log out for real and start over.
    void endSession()
      .catch(() => {})
      .finally(() => {
        setLoggedIn(false);
        window.location.reload();
      });
  }, [error, loggedIn]);

  useEffect(() => {
    if (!profile?.firstLogin) return;
    const key = `welcomed:${profile.id}`;
    if (localStorage.getItem(key)) return;
    localStorage.setItem(key, '1');
    openPopup({ kind: 'welcome', username: profile.username ?? 'friend' });
  }, [profile?.firstLogin, profile?.id, profile?.username]);

  useEffect(() => live.onReconnect(() => void queryClient.invalidateQueries()), [queryClient]);

  const signedIn = loggedIn && profile !== undefined;
  useLiveBalance(signedIn);
}
