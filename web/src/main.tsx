import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter, useRoutes } from './lib/router';
import { RouteErrorBoundary } from './app/RouteErrorBoundary';
import { routes } from './app/routes';
import { startPwa } from './lib/pwa';
import { Shell } from './app/Shell';
import { takePaintedBatch } from './features/pictures/api/pictures';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      refetchOnWindowFocus: false,
      // Offline a load is still tried (the service worker may have the public wall, web/src/sw.ts) and fails at once
      // instead of waiting paused: the screens say 'You are offline' there, and reconnecting loads again.
      networkMode: 'offlineFirst',
      retry: (failures) => navigator.onLine && failures < 3,
    },
  },
});

// A small router (./lib/router.tsx, wouter under react-router's API): route chunks load through React.lazy (see
// ./app/routes.tsx), and the shell shows the matched page.
function App() {
  const page = useRoutes(routes);
  return (
    <RouteErrorBoundary>
      <Shell>{page}</Shell>
    </RouteErrorBoundary>
  );
}

const app = (
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>
);
const container = document.getElementById('root')!;
// A page the server painted (docs/decisions.md "Issue 28: the wall painted by the server") carries the wall's first
// batch: with it in the cache, the first render is the painted page, which React then hydrates in place (the same
// elements stay, the picture with them). Should it differ, React renders that part itself: a warning, not an error.
if (takePaintedBatch(queryClient) && container.firstElementChild) {
  hydrateRoot(container, app, {
    onRecoverableError: (err) => console.warn('The painted page was rendered again:', err),
  });
} else {
  // As a transition, the first render is cut into short slices, so the page answers input while it is being built.
  startTransition(() => createRoot(container).render(app));
}

// The installable app: the install offer is kept from now, the service worker registers once the page is idle.
startPwa();
