import type { Message } from '../../../../../common/api/shared';
import { api } from '../../../lib/api';
import { setLoggedIn } from '../../../lib/session';

/** Ends the session on the server (its cookie is cleared by the answer). */
export const endSession = (): Promise<Message> => api<Message>('/api/auth/logout', { method: 'POST', body: {} });

/**
 * Logout: tell the server, drop the flag, go home with a fresh page (docs/product.md#accounts). The server dropped
 * this device's push subscription with the session; the browser forgets it too (best effort, a moment at most,
 * docs/product.md#push).
 */
export async function logout(): Promise<void> {
  try {
    await endSession();
  } catch {
    window.alert('Failed to logout. Please try again.');
    return;
  }
  setLoggedIn(false);
  // Loaded only now: the push feature's code is no part of the first load.
  await import('../../push/api/forget').then((m) => m.forgetThisDevice()).catch(() => {});
  window.location.assign('/');
}
