import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sqlRows, type Columns } from '../db/connection';
import type { idempotencyKeys } from '../db/core.tables';
import type { AppContext } from '../context';
import type { Work } from '../db/unit-of-work';
import { availableBalance, InsufficientFunds } from '../ledger/ledger';
import { refusesSuspended } from './authorization';
import { fieldError, HttpError } from './errors';
import { holdMembership } from './membership';

export interface Answer<T = unknown> {
  statusCode: number;
  body: T;
}

const KEY_HEADER = 'idempotency-key';

/**
 * The refusals a call that started gives (docs/decisions.md, "Idempotency, Stripe's rule"): a rule of the business said
 * no. They are stored and replayed like a success. Anything else thrown (403, 429, a 5xx, a lost database) is not:
 * the key stays free and a retry runs.
 */
const STORED_REFUSALS = new Set([400, 402, 404, 409]);

/** The answer a refusal gives, as the error handler writes it (http/hooks.ts), when it is one to store. */
export function storedRefusal(err: unknown): Answer | undefined {
  if (err instanceof InsufficientFunds) return { statusCode: 402, body: { missing: err.missing } };
  if (err instanceof HttpError && STORED_REFUSALS.has(err.statusCode) && Object.keys(err.headers).length === 0) {
    return { statusCode: err.statusCode, body: err.body };
  }
  return undefined;
}

/**
 * Runs a money-moving call in one transaction, honouring the Idempotency-Key header (docs/decisions.md, "Idempotency, Stripe's rule"):
 * once the call has started, its answer is stored under the key and replayed, whatever it was.
 *
 * The key is claimed first inside the transaction, so a concurrent replay waits on it and then reads the stored first
 * answer. The call itself runs after a savepoint: a refusal (402, 404, 409, a business 400) rolls back to it, undoing
 * everything the call did and every live event it raised, and the key's row is then written with the refusal and
 * committed. Anything else (a 5xx, a lost database) rolls the whole transaction back, claim included, so the key is
 * free again and a retry runs. Answers that never reach this point (schema 400, 401, 403, 413, 415, 429) store nothing.
 */
export async function idempotent<T>(
  ctx: Pick<AppContext, 'transact'> & Partial<Pick<AppContext, 'now'>>,
  req: FastifyRequest,
  userId: number,
  fn: (work: Work) => Promise<Answer<T>>,
): Promise<Answer<T>> {
  // A member's call reads the suspension again under its lock, so it never lands after one (http/membership.ts).
  const member = refusesSuspended(req.routeOptions?.config?.auth);
  const stillMember = (work: Work) => (member ? holdMembership(work, userId, ctx.now?.() ?? new Date()) : undefined);
  const key = keyOf(req);
  if (key === undefined)
    return ctx.transact(async (work) => {
      await stillMember(work);
      return fn(work);
    });
  if (key.length === 0 || key.length > 255)
    throw fieldError('Idempotency-Key', 'Idempotency-Key must be 1 to 255 characters.');

  const requestHash = createHash('sha256')
    .update(`${req.method} ${req.routeOptions.url ?? req.url}\n${JSON.stringify(req.params ?? {})}\n${bodyText(req)}`)
    .digest('hex');

  return ctx.transact(async (work): Promise<Answer<T>> => {
    const claimed = await sqlRows(
      work.tx,
      sql<Columns<typeof idempotencyKeys, 'key'>>`INSERT INTO idempotency_keys (user_id, key, request_hash, status_code)
          VALUES (${userId}, ${key}, ${requestHash}, 0) ON CONFLICT DO NOTHING RETURNING key`,
    );
    if (claimed.length === 0) {
      const [first] = await sqlRows(
        work.tx,
        sql<
          Columns<typeof idempotencyKeys, 'request_hash' | 'status_code'> & { response: T }
        >`SELECT request_hash, status_code, response FROM idempotency_keys WHERE user_id = ${userId} AND key = ${key}`,
      );
      if (!first || first.request_hash !== requestHash) {
        throw fieldError('Idempotency-Key', 'This Idempotency-Key was already used for a different request.');
      }
      return { statusCode: first.status_code, body: first.response };
    }
    await stillMember(work);
    const answer = await runToRefusal(work, fn);
    await work.tx.execute(
      sql`UPDATE idempotency_keys SET status_code = ${answer.statusCode}, response = ${JSON.stringify(answer.body ?? null)}::jsonb
          WHERE user_id = ${userId} AND key = ${key}`,
    );
    return answer;
  });
}

/**
 * Runs `fn` after a savepoint of the transaction. Its live events are held until it succeeds; a refusal to store
 * rolls back to the savepoint (nothing it wrote or raised remains) and becomes the answer; anything else is thrown.
 * The savepoint is left to the commit (no RELEASE): one statement more per keyed call, not two.
 */
async function runToRefusal<T>(work: Work, fn: (work: Work) => Promise<Answer<T>>): Promise<Answer<T>> {
  const held: (() => void)[] = [];
  const inner: Work = {
    tx: work.tx,
    emit(channel, topic, payload, ...to) {
      held.push(() => work.emit(channel, topic, payload, ...to));
    },
  };
  await work.tx.execute(sql`SAVEPOINT idempotent_call`);
  try {
    const answer = await fn(inner);
    for (const raise of held) raise();
    return answer;
  } catch (err) {
    const refusal = storedRefusal(err);
    if (!refusal) throw err;
    await work.tx.execute(sql`ROLLBACK TO SAVEPOINT idempotent_call`);
    return refusal as Answer<T>;
  }
}

/** The call's Idempotency-Key, if it carries one. */
function keyOf(req: FastifyRequest): string | undefined {
  const raw = req.headers[KEY_HEADER];
  return Array.isArray(raw) ? raw[0] : raw;
}

/**
 * The usual money-moving route: `run` under the call's Idempotency-Key, answered 200 with what it returns or with
 * the refusal it threw; a replay gets the stored first answer, whatever it was. `alone`, when given, is the same call
 * as a transaction of its own in one round trip (`ctx.transactCall`, db/one-call.ts), run instead when the call
 * carries no key: there is then no claim, savepoint or stored answer to share its transaction.
 */
export async function sendIdempotent<T>(
  ctx: Pick<AppContext, 'transact'> & Partial<Pick<AppContext, 'now'>>,
  req: FastifyRequest,
  reply: FastifyReply,
  userId: number,
  run: (work: Work) => Promise<T>,
  alone?: () => Promise<T>,
): Promise<FastifyReply> {
  if (alone && keyOf(req) === undefined) return reply.code(200).send(await alone());
  const answer = await idempotent(ctx, req, userId, async (work) => ({ statusCode: 200, body: await run(work) }));
  return reply.code(answer.statusCode).send(answer.body);
}

/**
 * A paid route (every call that spends or credits the caller's money): `sendIdempotent` whose success carries the
 * caller's balance after the call (`Paid`, common/api/shared.ts), read in the call's transaction, so the answer and
 * the ledger agree (docs/decisions.md, "Issue 23, item 4: one wallet"). A refusal is answered as it is.
 */
export function sendPaid<T extends object>(
  ctx: Pick<AppContext, 'transact'> & Partial<Pick<AppContext, 'now'>>,
  req: FastifyRequest,
  reply: FastifyReply,
  userId: number,
  run: (work: Work) => Promise<T>,
): Promise<FastifyReply> {
  return sendIdempotent(ctx, req, reply, userId, async (work) => ({
    ...(await run(work)),
    balance: await availableBalance(work.tx, userId),
  }));
}

function bodyText(req: FastifyRequest): string {
  const body = req.body as unknown;
  if (body === undefined || body === null) return '';
  if (Buffer.isBuffer(body)) return createHash('sha256').update(body).digest('hex');
  return JSON.stringify(body);
}
