import { forgetDevice } from '../lib/device';

/**
 * Sign-out's part (features/auth, docs/product.md#push): the browser drops this device's push subscription; the
 * server dropped it with the session. Best effort: it never throws and never holds sign-out up for long. Sign-out loads
 * it when it is needed, so none of it is part of the first load.
 */
export const forgetThisDevice = (): Promise<void> => forgetDevice();
