import type { FastifyRequest } from 'fastify';
import { LIVE_PATH } from '../../../common/live';
import type { App } from '../context';
import { addressGroup } from './address';
import type { Caller, Hub } from './hub';

export interface LiveRouteDeps {
  hub: Hub;
  /** The signed-in caller and the SHA-256 of their session, or null for a visitor. */
  authenticate(req: FastifyRequest): { userId: number; session: string } | null;
  /** Browsers send cookies on cross-site websocket upgrades too; Origin is what tells another site's page apart. */
  originAllowed(req: FastifyRequest): boolean;
}

/**
 * The live websocket (docs/product.md#live). Who the caller is decides whose private channels a socket may
 * follow; visitors get the public channels only.
 */
export async function liveRoutes(app: App, { hub, authenticate, originAllowed }: LiveRouteDeps): Promise<void> {
  // Worked out once per upgrade (the check before it and the socket after it), as a crowd reconnecting sends many.
  const callers = new WeakMap<FastifyRequest, Caller>();
  const callerOf = (req: FastifyRequest): Caller => {
    let caller = callers.get(req);
    if (!caller) {
      const identity = authenticate(req);
      // req.ip is the client's address as the proxy settings allow it to be known.
      caller = { userId: identity?.userId ?? null, session: identity?.session ?? null, address: addressGroup(req.ip) };
      callers.set(req, caller);
    }
    return caller;
  };

  // Before the server stops, so clients hear 1001 (going away) and reconnect to another instance.
  app.addHook('preClose', (done) => {
    hub.close();
    done();
  });

  app.get(
    LIVE_PATH,
    {
      websocket: true,
      schema: { hide: true },
      // Helmet's headers are for documents; ws writes its own answer to an upgrade, so building them (per request)
      // is work a reconnecting crowd would pay for nothing (docs/decisions.md "Issue 28: chat fan-out").
      helmet: false,
      // Anyone may connect; who the caller is decides which private channels the socket may follow.
      config: { auth: 'public' },
      preValidation: async (req, reply) => {
        if (!originAllowed(req)) return reply.code(403).send({ message: 'Cross-site request refused.' });
        // Refused before the upgrade, as a plain 429 (a browser sees a failed connection and retries later).
        const refusal = hub.refusal(callerOf(req));
        if (refusal) return reply.code(429).send({ message: refusal });
      },
    },
    (socket, req) => hub.add(socket, callerOf(req)),
  );
}
