import { PushEndpointBody, PushKey, PushPreferences, PushSubscriptionBody } from '../../../../common/api/push';
import { FieldErrors, Message } from '../../../../common/api/shared';
import type { App, AppContext } from '../../context';
import { authenticate, requireUser, type Identity } from '../../http/auth';
import { unauthorized } from '../../http/errors';
import { presentKey, presentPreferences } from './push.presenter';
import { mutedTypes, setPreferences, subscribe, unsubscribe, vapidOf } from './push.service';

export const PUSH_ANSWER = {
  on: 'Push is on for this device.',
  off: 'Push is off for this device.',
} as const;

/**
 * Web Push (docs/product.md#push): the VAPID key, a device's subscription, the switches per type. 'user', not
 * 'member': a suspended user may still manage their own devices and switches (docs/decisions.md "Issue 27: the push
 * outbox and VAPID keys").
 */
export async function pushRoutes(app: App, ctx: AppContext): Promise<void> {
  const tags = ['push'];
  const signedIn = { 401: Message };
  /** The caller and their session, which owns the device's subscription. */
  const caller = (req: Parameters<typeof authenticate>[0]): Identity => {
    const identity = authenticate(req);
    if (!identity) throw unauthorized();
    return identity;
  };

  app.get(
    '/api/push/key',
    {
      config: { auth: 'public' },
      schema: {
        summary: "The server's VAPID public key (base64url), for a browser's push subscription",
        operationId: 'getPushKey',
        tags,
        response: { 200: PushKey },
      },
    },
    async () => presentKey((await vapidOf(ctx)).publicKey),
  );

  app.post(
    '/api/push/subscriptions',
    {
      config: { auth: 'user' },
      schema: {
        summary: "Turn push on for the caller's device, or renew it (idempotent per endpoint; signing out removes it)",
        operationId: 'subscribePush',
        tags,
        body: PushSubscriptionBody,
        response: { 200: Message, 400: FieldErrors, ...signedIn },
      },
    },
    async (req) => {
      await subscribe(ctx, caller(req), req.body);
      return { message: PUSH_ANSWER.on };
    },
  );

  app.delete(
    '/api/push/subscriptions',
    {
      config: { auth: 'user' },
      schema: {
        summary: "Turn push off for one of the caller's devices (200 whether or not the endpoint was the caller's)",
        operationId: 'unsubscribePush',
        tags,
        body: PushEndpointBody,
        response: { 200: Message, 400: FieldErrors, ...signedIn },
      },
    },
    async (req) => {
      await unsubscribe(ctx, requireUser(req).id, req.body.endpoint);
      return { message: PUSH_ANSWER.off };
    },
  );

  app.get(
    '/api/push/preferences',
    {
      config: { auth: 'user' },
      schema: {
        summary: "The caller's push switches, one per type, all on by default",
        operationId: 'getPushPreferences',
        tags,
        response: { 200: PushPreferences, ...signedIn },
      },
    },
    async (req) => presentPreferences(await mutedTypes(ctx, requireUser(req).id)),
  );

  app.put(
    '/api/push/preferences',
    {
      config: { auth: 'user' },
      schema: {
        summary: "Set every one of the caller's push switches at once",
        operationId: 'setPushPreferences',
        tags,
        body: PushPreferences,
        response: { 200: PushPreferences, 400: FieldErrors, ...signedIn },
      },
    },
    async (req) => presentPreferences(await setPreferences(ctx, requireUser(req).id, req.body)),
  );
}
