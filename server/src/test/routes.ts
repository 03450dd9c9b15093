import type { App } from '../context';

/** Every route the app serves, read from Fastify's printed route tree (each line's indent says which it continues). */
export function appRoutes(app: App): { method: string; url: string }[] {
  const found: { method: string; url: string }[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:[│ ] {3})*)[├└]── (\S+)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    const url = (stack[depth - 1] ?? '') + m[2]!;
    stack.push(url);
    for (const method of m[3]?.split(', ') ?? []) if (method !== 'HEAD') found.push({ method, url });
  }
  return found;
}

/** A route's URL with every parameter (and a trailing wildcard) filled with `value`. */
export const withParams = (url: string, value: string) => url.replace(/:\w+/g, value).replace(/\*$/, value);
