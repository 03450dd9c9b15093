import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { FieldError } from '../../../common/errors';
import type { App, AppContext } from '../context';
import { OUT_OF_SPACE_TEXT } from '../../../common/errors';
import { isOutOfSpace } from '../db/out-of-space';
import { isDatabaseUnavailable, isStorageUnavailable } from '../db/unavailable';
import { InsufficientFunds } from '../ledger/ledger';
import { HttpError, serviceUnavailable } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Routes called by other servers (payment webhooks) carry no Origin and authenticate otherwise. */
    skipOriginCheck?: boolean;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function requestId(req: { headers: Record<string, string | string[] | undefined> }): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && /^[\w.-]{1,64}$/.test(incoming) ? incoming : randomUUID();
}

/** Hosts a browser may call us from: the one it asked for, and PUBLIC_URL's. */
export function originAllowed(origin: string | undefined, host: string | undefined, ctx: AppContext): boolean {
  if (origin === undefined) return true; // not a browser, or a same-origin GET: cookies alone cannot forge this
  let originHost: string;
  try {
    originHost = new URL(origin).host.toLowerCase();
  } catch {
    return false;
  }
  if (host && originHost === host.toLowerCase()) return true;
  return ctx.config.publicUrl !== undefined && originHost === new URL(ctx.config.publicUrl).host.toLowerCase();
}

/** Refuses state-changing calls sent by another site's page (cross-site request forgery). */
export function registerOriginCheck(app: App, ctx: AppContext): void {
  app.addHook('onRequest', async (req, reply) => {
    if (SAFE_METHODS.has(req.method) || req.routeOptions.config?.skipOriginCheck) return;
    if (!originAllowed(req.headers.origin, req.host, ctx)) {
      return reply.code(403).send({ message: 'Cross-site request refused.' });
    }
  });
}

/** Turns a schema validation failure into the list of {field, errorText} (docs/product.md#errors). */
export function validationErrors(err: FastifyError): FieldError[] {
  return (err.validation ?? []).map((v) => {
    const params = v.params as { missingProperty?: string; additionalProperty?: string } | undefined;
    const fromPath = v.instancePath.replace(/^\//, '').replace(/\//g, '.');
    const field = params?.missingProperty ?? params?.additionalProperty ?? fromPath ?? '';
    const text = params?.missingProperty
      ? 'This field is required.'
      : `${field || 'Request'} ${v.message ?? 'is invalid'}.`;
    return { field: field || (err.validationContext ?? 'body'), errorText: text };
  });
}

export function registerErrorHandler(app: App): void {
  // An error answered without a body (a plugin's bare 404, such as a plain GET of the live socket's route) still
  // says what happened, in the contract's {message} form.
  app.addHook('onSend', async (req, reply, payload) => {
    if (
      reply.statusCode < 400 ||
      req.method === 'HEAD' ||
      (payload !== undefined && payload !== null && payload !== '')
    ) {
      return payload;
    }
    reply.type('application/json; charset=utf-8');
    return JSON.stringify({ message: reply.statusCode === 404 ? 'Not found.' : `${STATUS_CODES[reply.statusCode]}.` });
  });
  app.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof HttpError) return reply.code(err.statusCode).headers(err.headers).send(err.body);
    // The one place a short balance becomes an answer: 402 with what is missing, for the top-up popup.
    if (err instanceof InsufficientFunds) return reply.code(402).send({ missing: err.missing });
    if (err.validation) return reply.code(400).send(validationErrors(err));
    const status = err.statusCode ?? 500;
    // Every 400 is a list of {field, errorText} (docs/product.md#errors), also Fastify's own (unparseable JSON, wrong type).
    if (status === 400) return reply.code(400).send([{ field: 'body', errorText: err.message }]);
    if (status > 400 && status < 500) return reply.code(status).send({ message: err.message });
    // A full disk (a stored image, the embedded database): nothing was saved or charged (docs/decisions.md, issue 22).
    if (isOutOfSpace(err)) {
      req.log.error({ reason: err.message }, 'out of storage space');
      return reply.code(507).send({ message: OUT_OF_SPACE_TEXT });
    }
    if (isStorageUnavailable(err)) {
      // The image bucket is away (storage/s3.ts): nothing was charged, and the next request tries it again.
      req.log.warn({ reason: err.message }, 'image storage unavailable');
      const unavailable = serviceUnavailable();
      return reply.code(unavailable.statusCode).header('retry-after', '2').send(unavailable.body);
    }
    if (isDatabaseUnavailable(err)) {
      // Expected while the database restarts or hangs: one line without a stack, and the client is told to retry
      // (a money call with the same Idempotency-Key returns its first answer if it did go through).
      req.log.warn({ reason: err.message }, 'database unavailable');
      const unavailable = serviceUnavailable();
      return reply.code(unavailable.statusCode).header('retry-after', '2').send(unavailable.body);
    }
    req.log.error({ err }, 'request failed');
    return reply.code(500).send({ message: 'Something went wrong on our side.', requestId: req.id });
  });
}

/**
 * Once shutdown begins, every answer closes its connection. Otherwise a keep-alive connection that carried a request
 * in flight at the signal stays open, and the server cannot finish closing until it is killed.
 */
export function registerCloseOnShutdown(app: App): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  // A request arriving on a kept-alive connection once shutdown began: the contract's 503 (Fastify's own, with
  // `return503OnClosing`, is another shape). Sent as text so no route's own 503 schema reshapes it (health's).
  app.addHook('onRequest', async (_req, reply) => {
    if (!closing) return;
    const unavailable = serviceUnavailable();
    return reply
      .code(unavailable.statusCode)
      .header('retry-after', '2')
      .type('application/json; charset=utf-8')
      .send(JSON.stringify(unavailable.body));
  });
  app.addHook('onSend', async (_req, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });
}
