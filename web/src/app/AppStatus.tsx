import { OFFLINE_TEXT, useOnline } from '../hooks/useOnline';
import './AppStatus.css';

/** Above every page while the device is offline (docs/product.md#push): what is shown may be old, and nothing loads. */
export function OfflineBanner() {
  const online = useOnline();
  if (online) return null;
  return (
    <div className="offline-banner" role="status" data-testid="offline-banner">
      {OFFLINE_TEXT}
    </div>
  );
}
