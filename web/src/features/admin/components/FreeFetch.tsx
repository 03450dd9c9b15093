import { useId, useState, type FormEvent } from 'react';
import { formatDateTime } from '../../../../../common/time';

type Outcome = { ok: true; text: string; at: Date } | { ok: false; message: string };

/**
 * The free fetch (docs/product.md#admin): the admin's own browser fetches the typed URL, never our server, so the
 * server cannot be made to reach anything. The page's Content-Security-Policy decides what the browser may reach.
 */
export function FreeFetch() {
  const [url, setUrl] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | undefined>();
  const urlId = useId();

  const send = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || url.trim() === '') return;
    setBusy(true);
    try {
      const res = await fetch(url.trim());
      setOutcome({ ok: true, text: await res.text(), at: new Date() });
    } catch (err) {
      setOutcome({ ok: false, message: err instanceof Error ? err.message : String(err) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="stack free-fetch" onSubmit={(e) => void send(e)} aria-label="Free Fetch">
      <div className="field">
        <label htmlFor={urlId}>URL</label>
        <div className="free-fetch__row">
          <input
            id={urlId}
            type="text"
            inputMode="url"
            autoComplete="off"
            placeholder="https://example.org/"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
          <button type="submit" className="button button--primary" disabled={busy || url.trim() === ''}>
            Send
          </button>
        </div>
      </div>
      {outcome?.ok === false ? (
        <p className="form-error" role="alert">
          Error: {outcome.message}
        </p>
      ) : null}
      {outcome?.ok ? (
        <div className="stack">
          <pre className="free-fetch__response" aria-label="Response" tabIndex={0}>
            {outcome.text}
          </pre>
          <p className="muted" role="status">
            Fetch completed at: {formatDateTime(outcome.at)}
          </p>
        </div>
      ) : null}
    </form>
  );
}
