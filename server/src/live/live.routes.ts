import type { App, AppContext } from '../context';

// Placeholder: the websocket hub is being written.
export async function liveRoutes(_app: App, _ctx: AppContext): Promise<void> {}
