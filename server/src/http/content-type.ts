import type { App } from '../context';

/*
 * A call's body is read only in the type the route declares (issue 22, item 20): JSON unless its schema's `consumes`
 * says otherwise (the upload: multipart/form-data). Fastify parses text/plain by default and the multipart plugin
 * parses multipart for every route, so `text/plain` carrying JSON reached handlers that never expected it. Checked
 * before the body is read, as a 415 {message}; a call sent with no Content-Type has no body to refuse.
 */

const JSON_ONLY = ['application/json'];
/** Methods whose body Fastify never reads. */
const BODILESS = new Set(['GET', 'HEAD']);

/** The media types a route takes, from its schema's `consumes` (the OpenAPI document shows the same list). */
export function acceptedTypes(schema: unknown): string[] {
  const consumes = (schema as { consumes?: unknown } | undefined)?.consumes;
  return Array.isArray(consumes) && consumes.length > 0 ? consumes.map((c) => String(c).toLowerCase()) : JSON_ONLY;
}

/** `text/plain; charset=utf-8` → `text/plain`. */
const essence = (contentType: string) => contentType.split(';')[0]!.trim().toLowerCase();

export function registerContentTypeCheck(app: App): void {
  app.addHook('onRequest', async (req, reply) => {
    const type = req.headers['content-type'];
    if (type === undefined || BODILESS.has(req.method) || req.is404) return;
    const accepted = acceptedTypes(req.routeOptions.schema);
    if (!accepted.includes(essence(type))) {
      return reply.code(415).send({ message: `This call takes a body of type ${accepted.join(' or ')}.` });
    }
  });
}
