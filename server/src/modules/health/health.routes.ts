import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { App, AppContext } from '../../context';
import { dataDirProblem } from '../../storage/data-dir';

/** A database that has not answered in this long counts as down: a hung check would hang the load balancer too. */
export const HEALTH_TIMEOUT_MS = 2_000;
export const DATABASE_DOWN = 'The database does not answer.';
export const DRAINING = 'This instance is stopping: send requests to another.';

/**
 * 200 {ok: true} only while the database answers and DATA_DIR takes writes; otherwise 503 {ok: false, reason}, and
 * load balancers take the instance out. A full data directory counts (docs/decisions.md, issue 22 item 29): on the
 * embedded database every write fails then while reads still answer, and on any database uploads fail.
 */
export async function healthRoutes(app: App, ctx: AppContext): Promise<void> {
  app.get(
    '/api/health',
    {
      // Its answer is {ok} alone: a failing session lookup must not turn it into another shape.
      config: { skipSession: true, auth: 'public' },
      schema: {
        summary: 'Whether the server and its database answer',
        operationId: 'getHealth',
        tags: ['operations'],
        querystring: Type.Object({
          read: Type.Optional(
            Type.Literal('1', {
              description:
                'Whether reads can be served: 200 while the primary or the read replica answers (a balancer in front of a readable site checks this)',
            }),
          ),
        }),
        response: {
          200: Type.Object({ ok: Type.Literal(true) }),
          503: Type.Object({
            ok: Type.Literal(false),
            reason: Type.String({ description: 'Why, in a sentence for the operator' }),
          }),
        },
      },
    },
    async (req, reply) => {
      const reason = ctx.lifecycle.draining ? DRAINING : await withinTime(problem(ctx, req.query.read === '1'));
      if (reason === undefined) return { ok: true as const };
      if (!ctx.lifecycle.draining) req.log.error({ reason }, 'health check failed');
      return reply.code(503).send({ ok: false as const, reason });
    },
  );
}

/**
 * The first thing wrong, or undefined: the database answering, then the data directory taking writes. For `reads`,
 * the replica answering is enough (docs/scaling.md, "Read replica").
 */
async function problem(ctx: AppContext, reads: boolean): Promise<string | undefined> {
  const servers = reads ? ctx.reads.servers() : [ctx.db];
  const [database, dataDir] = await Promise.all([
    Promise.any(servers.map((db) => db.execute(sql`SELECT 1`))).then(
      () => undefined,
      () => DATABASE_DOWN,
    ),
    dataDirProblem(ctx.config.dataDir, ctx.config.dataDirMinFreeBytes),
  ]);
  return database ?? dataDir;
}

/** A check that takes longer than HEALTH_TIMEOUT_MS is a failed one: a hung disk or database. */
async function withinTime(check: Promise<string | undefined>): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    const text = `The database or the data directory did not answer within ${HEALTH_TIMEOUT_MS} ms.`;
    timer = setTimeout(() => resolve(text), HEALTH_TIMEOUT_MS);
  });
  try {
    return await Promise.race([check, late]);
  } finally {
    clearTimeout(timer);
  }
}
