import { GoogleButton } from './GoogleButton';

/** The sign-in popup's Easy tab: Google one-tap, shown only where a Google client id is configured. */
export function EasyTab({ clientId }: { clientId: string }) {
  return (
    <div className="stack">
      <GoogleButton clientId={clientId} />
      <ul className="notes">
        <li>One tap with your Google account: no password to remember.</li>
        <li>We only read your name and email address, and we never post anything for you.</li>
        <li>New here? Your account is created on your first sign-in, and you then choose a nickname.</li>
      </ul>
    </div>
  );
}
