import { useUpdate } from '../lib/pwa';

/** A new build's service worker waits: one click takes it over and reloads (web/src/lib/pwa.ts). */
export default function UpdateToast() {
  const apply = useUpdate();
  if (!apply) return null;
  return (
    <div className="update-toast" role="status" data-testid="update-toast">
      <span>A new version is ready.</span>
      <button type="button" className="button button--primary" onClick={apply}>
        Reload to update
      </button>
    </div>
  );
}
