/** A load that failed: what could not be loaded, and a button to try again. */
export function LoadFailed({ text, onRetry, className }: { text: string; onRetry: () => void; className?: string }) {
  return (
    <div className={className}>
      <p className="form-error" role="alert">
        {text}
      </p>
      <button type="button" className="button" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
