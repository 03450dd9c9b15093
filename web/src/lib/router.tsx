import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useLayoutEffect,
  useMemo,
  useState,
  type ComponentProps,
  type ReactNode,
} from 'react';
import {
  Route,
  Router,
  matchRoute,
  useLocation as useMatchedPath,
  useParams as useRouteParams,
  useRouter,
} from 'wouter';

/**
 * The client's router: wouter (about 2.5 KB gzipped) under the part of react-router's API this client used, with
 * react-router's behaviour (react-router 7 was 11 KB of the first load: docs/decisions.md, "The router: wouter
 * (issue 9)"). What it keeps:
 * - every location change is a React transition, so a navigation keeps the current screen until a lazy page is ready;
 * - history entries carry react-router's `{usr, key, idx}` state: `key` is new on every navigation (the route error
 *   boundary resets on it) and `idx` counts this tab's entries from 0 (the item detail's back arrow reads it);
 * - `Link` replaces the entry instead of pushing one when it points at the current address, and leaves modified or
 *   middle clicks to the browser after calling its own `onClick`;
 * - `NavLink` is active on its path and below it (only on it with `end`), case-insensitively; it sets
 *   `aria-current="page"` and gives `{ isActive }` to a `className` function (or adds `active` to a string);
 * - `useRoutes` takes the first route of the table whose path matches (wouter's patterns: case-insensitive, optional
 *   trailing slash, `*` for anything), and renders it in the same place, so a page shown by two routes stays mounted.
 * Addresses given to `navigate` and `Link` are absolute (`/…`) or a search of the current path (`?…`).
 */

export interface Location {
  pathname: string;
  search: string;
  hash: string;
  /** The `state` of the navigation that made this entry. */
  state: unknown;
  /** New on every navigation; 'default' for the page's first entry. */
  key: string;
}

interface HistoryState {
  usr?: unknown;
  key?: string;
  idx?: number;
}

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

export interface RouteObject {
  path: string;
  element: ReactNode;
}

const entry = () => window.history.state as HistoryState | null;
const read = (): Location => {
  const { pathname, search, hash } = window.location;
  return { pathname, search, hash, state: entry()?.usr ?? null, key: entry()?.key ?? 'default' };
};

/** BrowserRouter's listener: set while it is mounted. */
let changed: (() => void) | null = null;

/** Pushes (or replaces) a history entry and tells the router; a number moves through the history instead. */
function navigate(to: string | number, { replace = false, state = null }: NavigateOptions = {}): void {
  if (typeof to === 'number') return window.history.go(to);
  const url = to.startsWith('?') ? window.location.pathname + (to === '?' ? '' : to) : to;
  const next = {
    usr: state,
    key: Math.random().toString(36).slice(2, 10),
    idx: (entry()?.idx ?? 0) + (replace ? 0 : 1),
  };
  window.history[replace ? 'replaceState' : 'pushState'](next, '', url);
  changed?.();
}

const LocationContext = createContext<Location | null>(null);

export function useLocation(): Location {
  return useContext(LocationContext)!;
}

// wouter reads the location through these, so its matching sees the same (transition-held) location as the app.
const useWouterLocation = (): [string, typeof navigate] => [useLocation().pathname, navigate];
const useWouterSearch = (): string => useLocation().search;

export function BrowserRouter({ children }: { children: ReactNode }) {
  const [location, setLocation] = useState(() => {
    if (entry()?.idx == null) window.history.replaceState({ ...entry(), idx: 0 }, '');
    return read();
  });
  useLayoutEffect(() => {
    const update = () => startTransition(() => setLocation(read()));
    changed = update;
    window.addEventListener('popstate', update);
    return () => {
      changed = null;
      window.removeEventListener('popstate', update);
    };
  }, []);
  return (
    <LocationContext value={location}>
      <Router hook={useWouterLocation} searchHook={useWouterSearch}>
        {children}
      </Router>
    </LocationContext>
  );
}

/** The first route of the table matching the location: the one `useRoutes` shows. */
export function useMatchedRoute(routes: RouteObject[]): RouteObject | undefined {
  const { parser } = useRouter();
  const [path] = useMatchedPath();
  return routes.find((r) => matchRoute(parser, r.path, path)[0]);
}

/** The element of the first route matching the location, with its parameters for `useParams`. */
export function useRoutes(routes: RouteObject[]): ReactNode {
  const route = useMatchedRoute(routes);
  return route ? <Route path={route.path}>{route.element}</Route> : null;
}

export function useNavigate(): typeof navigate {
  return navigate;
}

export const useParams = (): Readonly<Partial<Record<string, string>>> => useRouteParams();

export function useSearchParams(): [
  URLSearchParams,
  (next: URLSearchParams | ((prev: URLSearchParams) => URLSearchParams), options?: NavigateOptions) => void,
] {
  const { search } = useLocation();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const setParams = useCallback(
    (next: URLSearchParams | ((prev: URLSearchParams) => URLSearchParams), options?: NavigateOptions) =>
      navigate(`?${typeof next === 'function' ? next(new URLSearchParams(params)) : next}`, options),
    [params],
  );
  return [params, setParams];
}

export type LinkProps = Omit<ComponentProps<'a'>, 'href'> & { to: string; replace?: boolean };

export function Link({ to, replace, onClick, target, ...rest }: LinkProps) {
  const { pathname, search, hash } = useLocation();
  const href = to.startsWith('?') ? pathname + to : to;
  return (
    <a
      {...rest}
      href={href}
      target={target}
      onClick={(e) => {
        onClick?.(e);
        if (e.defaultPrevented || e.button !== 0 || (target && target !== '_self')) return;
        if (e.metaKey || e.altKey || e.ctrlKey || e.shiftKey) return;
        e.preventDefault();
        navigate(href, { replace: replace ?? pathname + search + hash === href });
      }}
    />
  );
}

export type NavLinkProps = Omit<LinkProps, 'className'> & {
  end?: boolean;
  className?: string | ((state: { isActive: boolean }) => string);
};

export function NavLink({ to, end = false, className, ...rest }: NavLinkProps) {
  const here = useLocation().pathname.toLowerCase();
  const path = to.replace(/[?#].*/, '').toLowerCase();
  const slashAt = path !== '/' && path.endsWith('/') ? path.length - 1 : path.length;
  const isActive = here === path || (!end && here.startsWith(path) && here.charAt(slashAt) === '/');
  return (
    <Link
      {...rest}
      to={to}
      aria-current={isActive ? 'page' : undefined}
      className={
        typeof className === 'function'
          ? className({ isActive })
          : [className, isActive && 'active'].filter(Boolean).join(' ')
      }
    />
  );
}
