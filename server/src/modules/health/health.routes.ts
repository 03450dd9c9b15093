import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { App, AppContext } from '../../context';

/** A database that has not answered in this long counts as down: a hung check would hang the load balancer too. */
export const HEALTH_TIMEOUT_MS = 2_000;

/** 200 {ok: true} only while the database answers; load balancers take an instance out otherwise. */
export async function healthRoutes(app: App, ctx: AppContext): Promise<void> {
  app.get(
    '/api/health',
    {
      // Its answer is {ok} alone: a failing session lookup must not turn it into another shape.
      config: { skipSession: true },
      schema: {
        summary: 'Whether the server and its database answer',
        operationId: 'getHealth',
        tags: ['operations'],
        response: { 200: Type.Object({ ok: Type.Literal(true) }), 503: Type.Object({ ok: Type.Literal(false) }) },
      },
    },
    async (req, reply) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          ctx.db.execute(sql`SELECT 1`),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no answer in ${HEALTH_TIMEOUT_MS} ms`)), HEALTH_TIMEOUT_MS);
          }),
        ]);
        return { ok: true as const };
      } catch (err) {
        req.log.error({ err }, 'health check: database did not answer');
        return reply.code(503).send({ ok: false as const });
      } finally {
        clearTimeout(timer);
      }
    },
  );
}
