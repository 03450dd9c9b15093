import { LIVE_PATH } from '../../../common/live';
import type { App, AppContext } from '../context';
import { originAllowed } from '../http/hooks';
import { hashToken, SESSION_COOKIE } from '../modules/auth/session';
import { Hub } from './hub';
import { currentSnapshot } from './snapshots';

/**
 * The live websocket (SPEC §7 "Live connection"). The session cookie, already read by the session hook, decides
 * whose private channels a socket may follow; anonymous sockets get the public channels only.
 */
export async function liveRoutes(app: App, ctx: AppContext): Promise<Hub> {
  const hub = new Hub({
    bus: ctx.bus,
    heartbeatMs: ctx.config.liveHeartbeatMs,
    snapshot: (userId, channel) => currentSnapshot(ctx.db, userId, channel),
    log: ctx.log,
  });

  // Before the server stops, so clients hear 1001 (going away) and reconnect to another instance.
  app.addHook('preClose', (done) => {
    hub.close();
    done();
  });

  app.get(
    LIVE_PATH,
    {
      websocket: true,
      // Browsers send cookies on cross-site websocket upgrades too; Origin is what tells another site's page apart.
      preValidation: async (req, reply) => {
        if (!originAllowed(req.headers.origin, req.headers.host, ctx)) {
          return reply.code(403).send({ message: 'Cross-site request refused.' });
        }
      },
    },
    (socket, req) => {
      const token = req.cookies[SESSION_COOKIE];
      hub.add(socket, req.user?.id ?? null, req.user && token ? hashToken(token) : null);
    },
  );
  return hub;
}
