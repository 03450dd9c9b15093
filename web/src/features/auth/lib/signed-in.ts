import { setLoggedIn } from '../../../lib/session';

/** After sign-in the flag is set and the page starts over where the server says (or reloads). */
export function signedIn(url?: string): void {
  // Not announced to this page: it is about to be replaced, and a profile fetch now would use up firstLogin.
  setLoggedIn(true, false);
  if (url) window.location.assign(url);
  else window.location.reload();
}
