import { forgetDevice } from '../lib/device';

/**
 * Sign-out's part (features/auth, docs/product.md#push): the browser drops this device's push subscription; the
 * server dropped it with the session. Best effort: it never throws and never holds sign-out up for long. A file of its
 * own so the shell's sign-out carries only this, not the section's code.
 */
export const forgetThisDevice = (): Promise<void> => forgetDevice();
