import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FieldError } from '../../../common/errors';
import type { App } from '../context';

/*
 * Input that no route can use, refused before any route sees it, in the contract's forms (docs/product.md#errors): 400 as a
 * list of {field, errorText}, 404 as {message}. PostgreSQL refuses 0x00 in text, so a NUL that reached a query was a
 * 500; unknown routes, undecodable URLs and unreadable requests got Fastify's own shapes.
 */

export const NUL_TEXT = 'This text contains a NUL character (\\0), which is not allowed.';
const BAD_URL_TEXT = 'The address is not valid: it has a broken %-encoding.';
const BAD_REQUEST_TEXT = 'The request could not be read.';
const MISSING_HOST_TEXT = 'The request has no Host header.';

export const containsNul = (text: string) => text.includes('\u0000');

/** The first place in a parsed value (params, query, body) where a string or key holds a NUL, as a field path. */
export function nulField(value: unknown, path = '', depth = 0): string | undefined {
  if (typeof value === 'string') return containsNul(value) ? path : undefined;
  if (value === null || typeof value !== 'object' || depth > 64) return undefined;
  if (Buffer.isBuffer(value)) return undefined;
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  for (const [key, inner] of entries) {
    const here = path ? `${path}.${key}` : key;
    if (containsNul(key)) return here;
    const found = nulField(inner, here, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

function nulErrors(req: FastifyRequest): FieldError[] | undefined {
  const key = req.headers['idempotency-key'];
  if (typeof key === 'string' && containsNul(key)) return [{ field: 'Idempotency-Key', errorText: NUL_TEXT }];
  for (const [part, value] of [
    ['params', req.params],
    ['querystring', req.query],
    ['body', req.body],
  ] as const) {
    const field = nulField(value);
    if (field !== undefined) return [{ field: field || part, errorText: NUL_TEXT }];
  }
  return undefined;
}

/** Refuses NUL in any string of params, query, body (and the Idempotency-Key), and answers unknown routes. */
export function registerInputChecks(app: App): void {
  // Node's own refusal of a request without Host is an empty 400; the server lets it through to be answered here.
  app.addHook('onRequest', async (req, reply) => {
    if (req.raw.httpVersion !== '1.0' && req.headers.host === undefined) {
      return reply.code(400).send([{ field: 'Host', errorText: MISSING_HOST_TEXT }]);
    }
  });
  app.addHook('preValidation', async (req, reply) => {
    const errors = nulErrors(req);
    if (errors) return reply.code(400).send(errors);
  });
  // Fastify's own words, in the contract's form: {message} alone, like every other 404 of the API.
  app.setNotFoundHandler((req, reply) => reply.code(404).send({ message: `Route ${req.method}:${req.url} not found` }));
}

/**
 * Longer than any request line Node's HTTP parser takes (16 KiB of headers by default): the router never refuses a
 * parameter for its length, so each route's own schema does, as a 400 naming the parameter.
 */
export const MAX_PARAM_LENGTH = 16 * 1024;
const LONG_PARAM_TEXT = 'The address is too long.';

/**
 * Fastify's `frameworkErrors`, the request errors it meets before any route runs: each is the sender's doing, so a
 * 400 list like any other bad input, never a 500 (issue 22, item 18). A URL whose %-encoding does not decode, a path
 * parameter past the router's limit, and any kind a later Fastify adds.
 */
export function frameworkErrors(err: Error & { code?: string }, req: FastifyRequest, reply: FastifyReply): void {
  const [field, errorText] =
    err.code === 'FST_ERR_BAD_URL'
      ? ['url', BAD_URL_TEXT]
      : err.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? ['url', LONG_PARAM_TEXT]
        : ['request', BAD_REQUEST_TEXT];
  if (field === 'request') req.log.warn({ code: err.code, reason: err.message }, 'request refused before routing');
  void reply.code(400).send([{ field, errorText }]);
}

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser could not read (malformed request line or headers)
 * gets an answer in the contract's form instead of Fastify's `{error, message, statusCode}`.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  // An answer already on its way (its rest of the body timed out while being dropped) gets no second one.
  const response = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (!socket.writable || response?.headersSent) {
    socket.destroy(err);
    return;
  }
  const [status, body] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? ['431 Request Header Fields Too Large', { message: 'The request headers are too large.' }]
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ['408 Request Timeout', { message: 'The request took too long to arrive.' }]
        : ['400 Bad Request', [{ field: 'request', errorText: BAD_REQUEST_TEXT }]];
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}
