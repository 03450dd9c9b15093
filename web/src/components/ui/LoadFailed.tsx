import { OFFLINE_TEXT, useOnline } from '../../hooks/useOnline';

/** A load that failed: what could not be loaded (or that the device is offline), and a button to try again. */
export function LoadFailed({ text, onRetry, className }: { text: string; onRetry: () => void; className?: string }) {
  const online = useOnline();
  return (
    <div className={className}>
      <p className="form-error" role="alert">
        {online ? text : OFFLINE_TEXT}
      </p>
      <button type="button" className="button" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
