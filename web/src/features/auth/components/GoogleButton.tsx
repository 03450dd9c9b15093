import { useEffect, useRef, useState } from 'react';
import { openPopup } from '../../../lib/popups';
import { loginWithGoogle } from '../api/login';
import { signedIn } from '../lib/signed-in';

interface GoogleId {
  initialize(opts: { client_id: string; callback: (r: { credential: string }) => void }): void;
  renderButton(el: HTMLElement, opts: Record<string, unknown>): void;
}
declare global {
  interface Window {
    google?: { accounts: { id: GoogleId } };
  }
}

const SCRIPT = 'https://accounts.google.com/gsi/client';
let loading: Promise<void> | undefined;
function loadGoogle(): Promise<void> {
  loading ??= new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = SCRIPT;
    s.async = true;
    s.onload = () => resolve();
    s.onerror = () => reject(new Error('Google sign-in script failed to load'));
    document.head.append(s);
  });
  return loading;
}

/** The identity provider's own button; its credential is exchanged for our session cookie. */
export function GoogleButton({ clientId }: { clientId: string }) {
  const host = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    loadGoogle()
      .then(() => {
        if (!live || !host.current || !window.google) return;
        window.google.accounts.id.initialize({
          client_id: clientId,
          callback: ({ credential }) => {
            loginWithGoogle(credential).then(
              ({ hasNickname }) => {
                if (hasNickname) signedIn();
                else openPopup({ kind: 'nickname' }, { strict: true });
              },
              () => setFailed(true),
            );
          },
        });
        window.google.accounts.id.renderButton(host.current, { theme: 'outline', size: 'large', text: 'signin_with' });
      })
      .catch((err: unknown) => {
        console.warn(err);
        if (live) setFailed(true);
      });
    return () => {
      live = false;
    };
  }, [clientId]);

  return (
    <div>
      <div ref={host} className="google-button" />
      {failed && (
        <p className="form-error" role="alert">
          Something went wrong. Please try again later or contact us.
        </p>
      )}
    </div>
  );
}
