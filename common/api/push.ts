import { Type, type Static } from 'typebox';
import { MAX_PUSH_ENDPOINT, PUSH_TYPES, type PushType } from '../push';

/* Web Push (docs/product.md#push): the server's VAPID key, a device's subscription, the switches per type. */

/** GET /api/push/key: the VAPID public key, base64url, for `pushManager.subscribe`. */
export const PushKey = Type.Object({ publicKey: Type.String() });
export type PushKey = Static<typeof PushKey>;

/** POST /api/push/subscriptions: a browser's `PushSubscription.toJSON()` (idempotent per endpoint). */
export const PushSubscriptionBody = Type.Object({
  endpoint: Type.String({ minLength: 1, maxLength: MAX_PUSH_ENDPOINT }),
  expirationTime: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  keys: Type.Object({
    p256dh: Type.String({ minLength: 1, maxLength: 200 }),
    auth: Type.String({ minLength: 1, maxLength: 100 }),
  }),
});
export type PushSubscriptionBody = Static<typeof PushSubscriptionBody>;

/** DELETE /api/push/subscriptions. */
export const PushEndpointBody = Type.Object({ endpoint: Type.String({ minLength: 1, maxLength: MAX_PUSH_ENDPOINT }) });
export type PushEndpointBody = Static<typeof PushEndpointBody>;

/** GET/PUT /api/push/preferences: one switch per type, all on by default. */
export const PushPreferences = Type.Object(
  Object.fromEntries(PUSH_TYPES.map((t) => [t, Type.Boolean()])) as Record<PushType, ReturnType<typeof Type.Boolean>>,
);
export type PushPreferences = Record<PushType, boolean>;
