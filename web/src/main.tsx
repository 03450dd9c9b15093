import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, useRoutes } from 'react-router';
import { RouteErrorBoundary } from './app/RouteErrorBoundary';
import { routes } from './app/routes';
import { Shell } from './app/Shell';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false } },
});

// The declarative router: the data router (loaders, actions, fetchers) would add about 15 KB gzipped to the first
// load for features this client does not use; route chunks load through React.lazy instead (see ./app/routes.tsx).
const tree = [{ path: '/', element: <Shell />, children: routes }];
function App() {
  return <RouteErrorBoundary>{useRoutes(tree)}</RouteErrorBoundary>;
}

const root = createRoot(document.getElementById('root')!);
// As a transition, the first render is cut into short slices, so the page answers input while it is being built.
startTransition(() =>
  root.render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <App />
        </BrowserRouter>
      </QueryClientProvider>
    </StrictMode>,
  ),
);
