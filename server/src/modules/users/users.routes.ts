import type { App, AppContext } from '../../context';

// Placeholder: this module's routes are being written.
export async function userRoutes(_app: App, _ctx: AppContext): Promise<void> {}
