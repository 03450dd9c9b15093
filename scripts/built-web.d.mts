/** See built-web.mjs. */
export function ensureBuiltWeb(): Promise<void>;
