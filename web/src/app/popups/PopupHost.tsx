import { lazy, Suspense, useEffect } from 'react';
import { setPaymentRequiredHandler } from '../../lib/api';
import { whenSettled } from '../../lib/load-order';
import { openPopup, usePopup } from '../../lib/popups';

const loadPopups = () => import('./popups');
const OpenPopup = lazy(loadPopups);

/** Renders the one open popup; also makes any 402 answer open the top-up with its shortfall. */
export function PopupHost() {
  const open = usePopup();
  useEffect(() => setPaymentRequiredHandler((missing) => openPopup({ kind: 'addMoney', missing })), []);
  // Fetched after the page has loaded, so the first popup opens at once.
  useEffect(() => whenSettled(() => void loadPopups().catch(() => {})), []);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <OpenPopup spec={open.spec} />
    </Suspense>
  );
}
