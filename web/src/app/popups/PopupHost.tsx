import { lazy, Suspense, useEffect } from 'react';
import { whenSettled } from '../../lib/load-order';
import { usePopup } from '../../lib/popups';

const loadPopups = () => import('./popups');
const OpenPopup = lazy(loadPopups);

/** Renders the one open popup (a 402's top-up is opened by the wallet, features/wallet/api/shortfall.ts). */
export function PopupHost() {
  const open = usePopup();
  // Fetched after the page has loaded, so the first popup opens at once.
  useEffect(() => whenSettled(() => void loadPopups().catch(() => {})), []);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <OpenPopup spec={open.spec} />
    </Suspense>
  );
}
