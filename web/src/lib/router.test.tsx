// @vitest-environment happy-dom
import { act, lazy, Suspense, useState, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BrowserRouter,
  Link,
  NavLink,
  useLocation,
  useParams,
  useRoutes,
  useSearchParams,
  type RouteObject,
} from './router';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root;
let host: HTMLElement;

const idx = () => (window.history.state as { idx?: number } | null)?.idx;
const text = (testId: string) => host.querySelector(`[data-testid="${testId}"]`)?.textContent;

function Params() {
  return <p data-testid="params">{JSON.stringify({ ...useParams() })}</p>;
}

/** A page with state of its own, to see whether a navigation keeps it mounted. */
function Counter() {
  const [n, setN] = useState(0);
  return (
    <button type="button" data-testid="counter" onClick={() => setN(n + 1)}>
      {n}
    </button>
  );
}

function Search() {
  const [params, setParams] = useSearchParams();
  return (
    <>
      <p data-testid="q">{params.get('q') ?? ''}</p>
      <button type="button" data-testid="set-q" onClick={() => setParams(new URLSearchParams({ q: 'x' }))}>
        set
      </button>
      <button
        type="button"
        data-testid="clear-q"
        onClick={() =>
          setParams(
            (p) => {
              p.delete('q');
              return p;
            },
            { replace: true },
          )
        }
      >
        clear
      </button>
    </>
  );
}

let clicks = 0;
let release: () => void = () => {};
const Slow = lazy(
  () =>
    new Promise<{ default: () => ReactNode }>((resolve) => {
      release = () => resolve({ default: () => <p data-testid="slow">slow page</p> });
    }),
);

const routes: RouteObject[] = [
  { path: '/', element: <Counter /> },
  { path: '/trending', element: <Counter /> },
  { path: '/image/share/:imageId', element: <Params /> },
  { path: '/image/:browsing/:id', element: <Params /> },
  { path: '/search', element: <Search /> },
  { path: '/slow', element: <Slow /> },
  { path: '*', element: <p data-testid="missing">Page not found</p> },
];

function Frame() {
  const location = useLocation();
  const page = useRoutes(routes);
  return (
    <>
      <p data-testid="where">{location.pathname + location.search}</p>
      <p data-testid="key">{location.key}</p>
      <NavLink to="/" end data-testid="top" className={({ isActive }) => (isActive ? 'on' : 'off')}>
        TOP
      </NavLink>
      <NavLink to="/image" data-testid="images" className="link">
        images
      </NavLink>
      <Link to="/trending" data-testid="to-trending" onClick={() => clicks++}>
        trending
      </Link>
      <Link to="/slow" data-testid="to-slow">
        slow
      </Link>
      <Suspense fallback={<p data-testid="loading">Loading...</p>}>{page}</Suspense>
    </>
  );
}

/** A fresh page at `path`: the router reads the address once, when it mounts. */
async function open(path: string) {
  act(() => root.unmount());
  root = createRoot(host);
  window.history.replaceState(null, '', path);
  await act(async () => root.render(<BrowserRouter>{<Frame />}</BrowserRouter>));
}

async function click(testId: string, init: MouseEventInit = {}) {
  const el = host.querySelector(`[data-testid="${testId}"]`)!;
  const event = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...init });
  await act(async () => el.dispatchEvent(event));
  return event;
}

beforeEach(() => {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
});

afterEach(() => {
  act(() => root.unmount());
  host.remove();
});

describe('the router', () => {
  it('shows the first route that matches, with its parameters, and the catch-all last', async () => {
    await open('/image/share/7');
    expect(JSON.parse(text('params')!)).toMatchObject({ imageId: '7' });
    await open('/image/top/9/');
    expect(JSON.parse(text('params')!)).toMatchObject({ browsing: 'top', id: '9' });
    await open('/no/such/page');
    expect(text('missing')).toBe('Page not found');
  });

  it('numbers the entries like react-router: idx from 0, a push adds one, a new key each time', async () => {
    await open('/');
    expect(idx()).toBe(0);
    expect(text('key')).toBe('default');
    const length = window.history.length;
    await click('to-trending');
    expect(window.location.pathname).toBe('/trending');
    expect(text('where')).toBe('/trending');
    expect(idx()).toBe(1);
    expect(window.history.length).toBe(length + 1);
    expect(text('key')).not.toBe('default');
  });

  it('replaces the entry when a link points at the current address', async () => {
    await open('/trending');
    const { length } = window.history;
    const key = text('key');
    await click('to-trending');
    expect(window.history.length).toBe(length);
    expect(idx()).toBe(0);
    expect(text('key')).not.toBe(key);
  });

  it('leaves a modified click to the browser, after the link’s own onClick', async () => {
    await open('/');
    clicks = 0;
    const event = await click('to-trending', { ctrlKey: true });
    expect(clicks).toBe(1);
    expect(event.defaultPrevented).toBe(false);
    expect(text('where')).toBe('/');
  });

  it('marks the active NavLink with aria-current and its class, `end` matching the path alone', async () => {
    await open('/');
    const top = host.querySelector('[data-testid="top"]')!;
    const images = host.querySelector('[data-testid="images"]')!;
    expect(top.getAttribute('aria-current')).toBe('page');
    expect(top.className).toBe('on');
    expect(images.getAttribute('aria-current')).toBeNull();
    expect(images.className).toBe('link');
    await open('/Image/top/3');
    const [topNow, imagesNow] = [
      host.querySelector('[data-testid="top"]')!,
      host.querySelector('[data-testid="images"]')!,
    ];
    expect(topNow.getAttribute('aria-current')).toBeNull();
    expect(topNow.className).toBe('off');
    expect(imagesNow.getAttribute('aria-current')).toBe('page');
    expect(imagesNow.className).toBe('link active');
  });

  it('keeps a page mounted between two routes that show it', async () => {
    await open('/');
    await click('counter');
    expect(text('counter')).toBe('1');
    await click('to-trending');
    expect(text('counter')).toBe('1');
  });

  it('sets search parameters on the current path, pushing unless told to replace', async () => {
    await open('/search');
    const { length } = window.history;
    await click('set-q');
    expect(window.location.pathname + window.location.search).toBe('/search?q=x');
    expect(text('q')).toBe('x');
    expect(window.history.length).toBe(length + 1);
    await click('clear-q');
    expect(window.location.pathname + window.location.search).toBe('/search');
    expect(text('q')).toBe('');
    expect(window.history.length).toBe(length + 1);
  });

  it('keeps the current screen while a lazy page loads (navigations are transitions)', async () => {
    await open('/');
    await click('to-slow');
    expect(window.location.pathname).toBe('/slow');
    expect(host.querySelector('[data-testid="loading"]')).toBeNull();
    expect(text('counter')).toBe('0');
    await act(async () => release());
    expect(text('slow')).toBe('slow page');
    expect(text('where')).toBe('/slow');
  });
});
