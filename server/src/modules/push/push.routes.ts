import type { App, AppContext } from '../../context';

/** Web Push (docs/product.md#push): the VAPID key, a device's subscription, the switches per type. */
export async function pushRoutes(_app: App, _ctx: AppContext): Promise<void> {
  // The routes land with the push module's server side (issue 27).
}
