import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { App, AppContext } from '../../context';

/** 200 {ok: true} only while the database answers; load balancers take an instance out otherwise. */
export async function healthRoutes(app: App, ctx: AppContext): Promise<void> {
  app.get(
    '/api/health',
    {
      schema: {
        response: { 200: Type.Object({ ok: Type.Literal(true) }), 503: Type.Object({ ok: Type.Literal(false) }) },
      },
    },
    async (req, reply) => {
      try {
        await ctx.db.execute(sql`SELECT 1`);
        return { ok: true as const };
      } catch (err) {
        req.log.error({ err }, 'health check: database did not answer');
        return reply.code(503).send({ ok: false as const });
      }
    },
  );
}
