import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { rows } from '../db/connection';
import type { AppContext } from '../context';
import type { Work } from '../db/unit-of-work';
import { fieldError } from './errors';

export interface Answer<T = unknown> {
  statusCode: number;
  body: T;
}

const KEY_HEADER = 'idempotency-key';

/**
 * Runs a money-moving call in one transaction, honouring the Idempotency-Key header (DESIGN.md §2): the key is
 * claimed first inside the transaction, so a concurrent replay waits on it and then returns the stored first answer.
 * Only successful answers are stored: a call that failed (say, 402) changed nothing and may be tried again.
 */
export async function idempotent<T>(
  ctx: Pick<AppContext, 'transact'>,
  req: FastifyRequest,
  userId: number,
  fn: (work: Work) => Promise<Answer<T>>,
): Promise<Answer<T>> {
  const raw = req.headers[KEY_HEADER];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined) return ctx.transact(fn);
  if (key.length === 0 || key.length > 255)
    throw fieldError('Idempotency-Key', 'Idempotency-Key must be 1 to 255 characters.');

  const requestHash = createHash('sha256')
    .update(`${req.method} ${req.routeOptions.url ?? req.url}\n${JSON.stringify(req.params ?? {})}\n${bodyText(req)}`)
    .digest('hex');

  return ctx.transact(async (work) => {
    const claimed = await rows<{ key: string }>(
      work.tx,
      sql`INSERT INTO idempotency_keys (user_id, key, request_hash, status_code)
          VALUES (${userId}, ${key}, ${requestHash}, 0) ON CONFLICT DO NOTHING RETURNING key`,
    );
    if (claimed.length === 0) {
      const [first] = await rows<{ request_hash: string; status_code: number; response: T }>(
        work.tx,
        sql`SELECT request_hash, status_code, response FROM idempotency_keys WHERE user_id = ${userId} AND key = ${key}`,
      );
      if (!first || first.request_hash !== requestHash) {
        throw fieldError('Idempotency-Key', 'This Idempotency-Key was already used for a different request.');
      }
      return { statusCode: first.status_code, body: first.response };
    }
    const answer = await fn(work);
    await work.tx.execute(
      sql`UPDATE idempotency_keys SET status_code = ${answer.statusCode}, response = ${JSON.stringify(answer.body ?? null)}::jsonb
          WHERE user_id = ${userId} AND key = ${key}`,
    );
    return answer;
  });
}

/**
 * The usual money-moving route: `run` under the call's Idempotency-Key, answered 200 with what it returns (every
 * refusal is thrown, so only successes are stored), a replay with the stored first answer.
 */
export async function sendIdempotent<T>(
  ctx: Pick<AppContext, 'transact'>,
  req: FastifyRequest,
  reply: FastifyReply,
  userId: number,
  run: (work: Work) => Promise<T>,
): Promise<FastifyReply> {
  const answer = await idempotent(ctx, req, userId, async (work) => ({ statusCode: 200, body: await run(work) }));
  return reply.code(answer.statusCode).send(answer.body);
}

function bodyText(req: FastifyRequest): string {
  const body = req.body as unknown;
  if (body === undefined || body === null) return '';
  if (Buffer.isBuffer(body)) return createHash('sha256').update(body).digest('hex');
  return JSON.stringify(body);
}
